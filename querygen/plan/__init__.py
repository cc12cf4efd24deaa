"""The plan stage: what a task does, proven on a live fork before any word is written.

The dependency graph and its chains, the live sampler and the argument values, the gold calls
executed on a fork (:mod:`querygen.plan.gold`, over the draft's data in :mod:`querygen.plan.step`),
the written policy's verdicts and the checks that read state. Nothing here imports the text stage
or the top of :mod:`querygen`: a plan is words-free, and the text stage reads it.
"""
