"""Code host (GitHub/GitLab-like): repositories, branches, commits, pull requests, reviews, check
runs, branch protection and releases, with the team's written merge and release policy.

Acting model: the ``sessions`` row names the signed-in developer, the persona (USR-000001, world
person 0). Each repository gives each collaborator one permission: ``read`` (see, review and
comment), ``write`` (branches, commits, pull requests, merges, re-running checks), ``maintain``
(also releases and branch protection) or ``admin``. Public repositories are readable by everyone.

Reference moment: Monday 2026-06-01 09:00. Nothing moves by itself: CI runs synchronously when a
commit is pushed (a new commit's checks pass), and a re-run check finishes at once.

Commits are whole-tree snapshots of small text files; conflicts are file-level (both sides of a
merge changed the same file since their merge base).

Rules the host enforces, each refused with an error naming the values involved:

* Archived repositories are read-only; permission levels gate every write (above).
* Protected branches take no direct commits and cannot be deleted; the default branch cannot be
  deleted, nor a branch that open pull requests merge into (open pull requests *from* a deleted
  branch are closed with it). Branch names are git-valid and unique in their repository.
* A pull request joins two different branches of one repository with commits to merge; one open
  pull request per head and base.
* Merging needs an open, non-draft pull request, a method the repository allows, no conflicts,
  every check the base branch's protection requires passing on the head commit, the required
  number of approvals (a reviewer's latest verdict; from users with write access other than the
  author; an outstanding request for changes blocks), and, when protection requires it, a head
  that contains the base's latest commit. ``expected_head_sha`` pins the merge to the commit that
  was checked. ``mergeable_state`` (clean, unstable, blocked, behind, dirty, draft) sums this up.
* Authors cannot approve or request changes on their own pull request; drafts take comments only.
* Release tags are semantic versions, unique within their repository.

The team policy (``policy.py``, written by default) adds holds, merge freezes, self-merge and
migration review rules, a release rule, branch hygiene, protection overrides and a confirmation.
"""

from servers.domains.code_host import files, policy, pulls, releases, repos, reviews, seed
from servers.domains.code_host.model import code_host

# the modules that declare the domain; its tools are shown to agents in this order
code_host.include(policy, seed, repos, files, pulls, reviews, releases)

__all__ = ["code_host"]

# the words its developers use and its assistant answers with (read by the task generator)
from servers.domains.code_host import language as _language  # noqa: E402,F401
