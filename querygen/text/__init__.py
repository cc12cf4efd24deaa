"""The text stage: what the user says and what the assistant answers, for a planned task.

Who the task is about and how each entity is named (:mod:`querygen.text.naming`,
:mod:`querygen.text.refer`), the sentences, dates and answers, the optional paraphrase and the
realism detectors. It may read the plan stage (:mod:`querygen.plan`), never the top of
:mod:`querygen`.
"""
