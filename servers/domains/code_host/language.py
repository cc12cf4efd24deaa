"""How the developers of a team talk to their code host, and what its assistant tells them.

The user is the signed-in developer. They name repositories as ``owner/name`` ("harvey/mobile-
service"), or by the short name inside their organisation ("the mobile-service repo"); branches
by name ("the fix/timeout branch"), pull requests by number within a repository ("#42 in
harvey/mobile-service") or by title, checks by name ("the lint check"), releases by tag,
teammates by username. They never know an internal id (a pull request's, a branch's, a check
run's, a user's). The assistant answers as a teammate would: what a merge still needs, which
checks fail, the new pull request's number, the tag it published, never a sha or a field list.
"""

from __future__ import annotations

from servers.domains.code_host.model import (
    Branch,
    CheckRun,
    Collaborator,
    PullRequest,
    Repo,
    Review,
    User,
    code_host,
)
from servers.kit import Language

# The session is the speaker, but no parameter means "me": a tool acts as the signed-in developer.
say = Language(code_host)

# -- naming things ------------------------------------------------------------------------------
# a teammate by username, as in "@dlee", or by name; the username is what a developer types
say.names(User, "{login}", "{name}", held="{login}")
# a repository's id is its owner/name, which every request can quote; found by its short name
say.names(Repo, "the {name} repo", "the {name} repository", "{name}", "the {name} repo of {owner}")
say.names(
    Branch,
    "the {name} branch",
    "{name}",
    "the {name} branch",
    within="{row} in {owner}",  # "the fix/timeout branch in the mobile-service repo"
    called="a branch",
)
say.names(
    PullRequest,
    'the "{title}" PR in {repo_id}',
    '"{title}" in {repo_id}',
    "#{number} in {repo_id}",
    "pull request #{number} in {repo_id}",
    'the "{title}" pull request',
    called="a pull request",
)
say.names(CheckRun, "the {name} check", "the {status:state} {name} check", called="a check")

say.state(PullRequest, "state", draft="a draft", open="open", merged="merged", closed="closed")
say.state(
    PullRequest,
    "mergeable_state",
    clean="ready to merge",
    unstable="mergeable, though some checks fail",
    blocked="blocked",
    behind="behind its base branch",
    dirty="conflicting with its base branch",
    draft="still a draft",
    closed="closed",
    merged="merged",
)
say.state(
    CheckRun,
    "status",
    queued="queued",
    in_progress="still running",
    success="passed",
    failure="failed",
    neutral="finished neutral",
    skipped="skipped",
)
say.state(
    Review, "state", approved="approved", changes_requested="requested changes on", commented="commented on"
)
say.state(Repo, "visibility", private="private", internal="internal", public="public")
say.state(Collaborator, "permission", read="read", write="write", maintain="maintain", admin="admin")

LABELS = ("bug", "needs-docs", "ready-for-qa", "dependencies", "enhancement", "docs")
PR_TITLES = (
    "Fix the session timeout",
    "Raise the upstream timeout",
    "Add audit log export",
    "Retry transient failures",
    "Validate inputs earlier",
    "Bump dependencies for June",
)
PR_BODIES = (
    "Fixes the flaky retry path. Tested locally.",
    "Raises the timeout to 30 seconds; the old value broke slow networks.",
    "Adds a CSV export of the audit log. Docs to follow.",
)
REVIEW_NOTES = (
    "Please add a test for the timeout path.",
    "Can we log the error before retrying?",
    "Looks good, but the default should stay at 10 seconds.",
    "Nice cleanup; please mention the new setting in the README.",
    "The retry loop needs a cap.",
)
LINE_NOTES = (
    "Could this be a constant?",
    "This timeout looks too short for slow networks.",
    "Typo here.",
    "Why is this needed?",
    "Can we log this instead of swallowing it?",
)
BRANCH_NAMES = (
    "fix/session-timeout",
    "feature/audit-log-export",
    "chore/bump-deps-june",
    "hotfix/cache-headers",
    "docs/readme-setup",
)
REASONS = (
    "OPS-2291 hotfix window approved",
    "SEC-118 audit follow-up",
    "tighten review rules after the outage",
    "temporary: release crunch",
    "OPS-3310 CI migration",
)

# -- the team's policy ----------------------------------------------------------------------------
# ``get_policy`` is added when the domain's tools are sealed (kit.policy_tools): seal them first
assert "get_policy" in code_host.tools
say.tool(
    "get_policy",
    asks=[
        "What are our merge and release rules?",
        "Remind me of the team's merge policy.",
        "What does the team policy say about merging and releases?",
    ],
    tells=[
        "The team has {rules:count(rule)} on top of what the host enforces: no merging anything labelled "
        "hold or do-not-merge, none into a default branch during a merge freeze, nobody merges their own "
        "pull request before someone else approves it, migrations need a maintainer's approval, a branch "
        "is brought up to date before it merges, releases come only from a green default branch, a branch "
        "with an open pull request stays, only admins lower branch protection (citing a ticket), and "
        "merges, branch deletions and releases need your explicit yes first."
    ],
)

# -- repositories and branches ----------------------------------------------------------------------
say.tool(
    "list_repos",
    asks=[
        "Which repos can I work on?",
        "What repositories do I have access to?",
        "List the {owner} repos.",
        "Which repositories does {owner} have?",
        "Find the repos with {query} in the name.",
        "I'm looking for the {query} repos, which ones are there?",
        "Which repos can I see, {include_archived}?",
    ],
    tells=[
        "{@owner} has {repos:count(repository)} you can see: {repos:list(id)}.",
        'These match "{@query}": {repos:list(id)}.',
        "You can see {repos:count(repository)}: {repos:list(id)}.",
        "No repository matches that.",
    ],
    words={"include_archived": {True: "archived ones included", False: "leaving out archived ones"}},
    values={"query": ("payments", "billing", "auth", "search", "checkout", "analytics", "gateway", "orders")},
)
say.tool(
    "get_repo",
    asks=[
        "What's the default branch of {repo}?",
        "Show me how {repo} is set up.",
        "Which merge methods does {repo} allow?",
        "Is {repo} under a merge freeze?",
        "What access do I have on {repo}?",
        "I'm about to work on {repo}; what should I know about it?",
    ],
    tells=[
        "{id} is archived, so it's read-only{archived:yes}; its default branch was {default_branch}.",
        "{id} has a merge freeze set through {frozen_until:day}. Its default branch is {default_branch} "
        "({protected_branches:list(name)} protected), it allows {merge_methods} merges, and you have "
        "{your_permission} access.",
        "{id} has a merge freeze set through {frozen_until:day}. Its default branch is {default_branch}, "
        "it allows {merge_methods} merges, and you have {your_permission} access.",
        "{id} has no merge freeze{frozen_until:no}. Its default branch is {default_branch} "
        "({protected_branches:list(name)} protected); it allows {merge_methods} merges, runs {check_names} "
        "on every commit, has {open_pull_requests:count(open pull request)}, and you have {your_permission} "
        "access.",
        "{id} has no merge freeze{frozen_until:no}. Its default branch is {default_branch}, with no protected "
        "branches; it allows {merge_methods} merges, runs {check_names} on every commit, has "
        "{open_pull_requests:count(open pull request)}, and you have {your_permission} access.",
    ],
)
say.tool(
    "list_branches",
    asks=[
        "What branches does {repo} have?",
        "List the branches in {repo}.",
        "Which branches are there in {repo} right now?",
        "Show me {protected_only} branches of {repo}.",
        "I want to clean up {repo}; which branches does it have?",
    ],
    tells=[
        "{repo} has {branches:count(protected branch)}: {branches:list(name)}.{protected_only:yes}",
        "{repo} has {branches:count(branch)}: {branches:list(name)}.",
        "{repo} has no protected branches.",
    ],
    words={"protected_only": {True: "only the protected", False: "all the"}},
)
say.tool(
    "create_branch",
    asks=[
        "Create a branch {name} in {repo}.",
        "Start a new branch called {name} in {repo}.",
        "I'm starting on a fix; make me a branch {name} in {repo}.",
        "In {repo}, create {name} off {source}.",
        "Can you cut a branch {name} in {repo}? Base it on {source}.",
        "Please branch off the default branch of {repo} as {name}.",
    ],
    tells=[
        "Created {name} in {repo_id}, starting from {from}.",
    ],
    values={"name": BRANCH_NAMES},
)
say.tool(
    "delete_branch",
    confirms=[
        "delete {@branch}",
    ],
    asks=[
        "Delete {branch}.",
        "We're done with {branch}, please delete it.",
        "Remove {branch}, it's merged already.",
        "Clean up {branch} for me, it's not needed anymore.",
        "Get rid of {branch}.",
    ],
    tells=[
        "Deleted {deleted} from {repo}; that also closed {closed_pull_requests:count(open pull request)} "
        "from it.",
        "Deleted {deleted} from {repo}.",
    ],
)
say.tool(
    "set_branch_protection",
    asks=[
        "Require {required_approvals} approving reviews on {branch}; the reason is {reason}.",
        "Set the required approvals on {branch} to {required_approvals} ({reason}).",
        "Make {required_checks} required checks on {branch}. Reason: {reason}.",
        "Protect {branch} so {required_checks} must pass before merging; {reason}.",
        "On {branch}, {require_up_to_date}. Put down '{reason}' as the reason.",
        "Please {allow_force_push} on {branch}; reason: {reason}.",
        "Turn on branch protection for {branch}, reason: {reason}.",
    ],
    tells=[
        "Force pushes to {branch} in {repo} are allowed now.{@allow_force_push:yes}{allow_force_push:yes}",
        "Force pushes to {branch} in {repo} are blocked now.{@allow_force_push:yes}{allow_force_push:no}",
        "{branch} in {repo} now has to be up to date with its base before a merge."
        "{@require_up_to_date:yes}{require_up_to_date:yes}",
        "{branch} in {repo} no longer has to be up to date with its base before a merge."
        "{@require_up_to_date:yes}{require_up_to_date:no}",
        "{branch} in {repo} now needs {required_approvals:count(approval)} and {required_checks} passing "
        "before a merge.",
        "{branch} in {repo} now needs {required_approvals:count(approval)} before a merge, and no "
        "particular checks.",
    ],
    words={
        "require_up_to_date": {
            True: "require branches to be up to date before they merge",
            False: "stop requiring branches to be up to date before they merge",
        },
        "allow_force_push": {True: "allow force pushes", False: "block force pushes"},
    },
    values={"reason": REASONS, "required_checks": ("build, test", "build, test, lint", "test")},
)

# -- files and commits ----------------------------------------------------------------------------
say.tool(
    "get_file",
    asks=[
        "Show me {path} on {branch}.",
        "What's in {path} on {branch}?",
        "Can you open {path} from {branch}?",
        "I need to check a setting; what does {path} say on {branch}?",
        "Print {path} as it is on {branch}.",
    ],
    tells=["Here's {path} on {branch}:\n\n```\n{text}\n```", "{path} is empty on {branch}."],
)
say.tool(
    "commit_file_change",
    asks=[
        "On {branch}, set {path} to '{content}' and commit it as '{message}'.",
        "Change {path} on {branch} to '{content}'; commit message '{message}'.",
        "Commit a new version of {path} to {branch}: '{content}'. Message: {message}.",
        "Please {delete} {path} on {branch}, with the commit message '{message}'.",
        "Replace the contents of {path} on {branch} with '{content}' (commit message: '{message}').",
    ],
    tells=[
        'Deleted {path} on {branch} in the commit "{message}".{deleted:yes}',
        'Committed "{message}" to {branch}, changing {path}; the checks ran on the new commit.',
    ],
    words={"delete": {True: "delete the file", False: "keep the file"}},
    values={
        "message": (
            "Apply review feedback",
            "Small fix",
            "Update settings",
            "Address review comments",
            "Tidy up",
        ),
        "content": (
            "TIMEOUT_S = 30",
            "RETRIES = 3",
            "CACHE_TTL_S = 0",
            "# Changelog - fix the session timeout",
        ),
    },
)
say.tool(
    "compare_branches",
    asks=[
        "How far is {head} behind {base}?",
        "Compare {head} with {base}.",
        "Does {head} conflict with {base}?",
        "What does {head} have that {base} doesn't?",
        "I'm about to open a PR; how does {head} compare to {base}?",
    ],
    tells=[
        "{head} is {ahead_by:count(commit)} ahead of {base} and {behind_by:count(commit)} behind, and a "
        "merge would conflict in {conflicting_files}.",
        "{head} and {base} point at the same code{ahead_by:no}{behind_by:no}: nothing to merge either way.",
        "{head} has nothing that {base} lacks{ahead_by:no}; it is {behind_by:count(commit)} behind {base}.",
        "{head} is {ahead_by:count(commit)} ahead of {base} and not behind it{behind_by:no}; it changes "
        "{files_changed} and would merge cleanly.",
        "{head} is {ahead_by:count(commit)} ahead of {base} and {behind_by:count(commit)} behind; it "
        "changes {files_changed} and would merge cleanly.",
    ],
)

# -- pull requests --------------------------------------------------------------------------------
say.tool(
    "list_pull_requests",
    asks=[
        "What pull requests are open in {repo}?",
        "Which PRs in {repo} are waiting?",
        "Show me the {state} pull requests in {repo}.",
        "Which PRs in {repo} are labelled {label}?",
        "What pull requests has {opened_by} opened?",
        "Which {state} PRs has {opened_by} got in {repo}?",
        "Anything labelled {label} still open?",
    ],
    tells=[
        "In {@repo}, the {@state} pull requests from {@opened_by} are {pull_requests:list(title)}.",
        "In {@repo}, the {@state} pull requests are {pull_requests:list(title)}.",
        "I see {pull_requests:count(open pull request)} labelled {@label} in {@repo}: {pull_requests:list(title)}.",
        "In {@repo}, the pull requests from {@opened_by} are {pull_requests:list(title)}.",
        "In {@repo}, the open pull requests are {pull_requests:list(title)}.",
        "The {@state} pull requests from {@opened_by} are {pull_requests:list(title, repo_id)}.",
        "The open pull requests from {@opened_by} are {pull_requests:list(title, repo_id)}.",
        "I see {pull_requests:count(open pull request)} labelled {@label}: {pull_requests:list(title, repo_id)}.",
        "The {@state} pull requests are {pull_requests:list(title, repo_id)}.",
        "The open pull requests are {pull_requests:list(title, repo_id)}.",
        "There are no {@state} pull requests from {@opened_by} in {@repo}.{pull_requests:no}",
        "There are no open pull requests from {@opened_by} in {@repo}.{pull_requests:no}",
        "There are no {@state} pull requests from {@opened_by}.{pull_requests:no}",
        "There are no open pull requests from {@opened_by}.{pull_requests:no}",
        "There are no {@state} pull requests in {@repo}.{pull_requests:no}",
        "There are no such pull requests in {@repo}.{pull_requests:no}",
        "There are no such pull requests.{pull_requests:no}",
    ],
    words={"state": {"draft": "draft", "open": "open", "merged": "merged", "closed": "closed"}},
    values={"label": ("bug", "hold", "dependencies", "needs-docs", "ready-for-qa", "enhancement")},
)
say.tool(
    "get_pull_request",
    asks=[
        "What's blocking {pull_request}?",
        "Can {pull_request} be merged yet?",
        "Where is {pull_request} at?",
        "Pull up {pull_request} for me.",
        "Is {pull_request} ready to go? The release is close.",
    ],
    tells=[
        '#{number} ("{title}") is {state:state} and can\'t be merged yet: {merge.blockers}.',
        'Nothing on the host blocks #{number} ("{title}"){merge.blockers:no}; it\'s labelled {labels} and '
        "changes {files_changed}.",
        'Nothing on the host blocks #{number} ("{title}"){merge.blockers:no}; it changes {files_changed}.',
        '#{number} ("{title}") was merged into {base_branch} on {merged_at:day}.',
        '#{number} ("{title}") was closed without merging on {closed_at:day}.',
    ],
)
say.tool(
    "create_pull_request",
    asks=[
        "Open a pull request from {head} into {base} titled '{title}'.",
        "Please open a PR to merge {head} into {base}, called '{title}'.",
        "I'm done with {head}; open a PR into {base}: '{title}'.",
        "Open a draft PR from {head} to {base} named '{title}'{draft}.",
        "Open a PR '{title}' from {head} into {base} with the description '{body}'.",
    ],
    tells=[
        'Opened draft #{number}, "{title}", to merge {head_branch} into {base_branch}.{draft:yes}',
        'Opened #{number}, "{title}", to merge {head_branch} into {base_branch}.',
    ],
    words={"draft": {True: ", as a draft for now", False: ", ready for review"}},
    values={"title": PR_TITLES, "body": PR_BODIES},
)
say.tool(
    "update_pull_request",
    asks=[
        "Mark {pull_request} as {draft}.",
        "{pull_request} should be {draft} now, please change it.",
        "Add the {add_labels} label to {pull_request}.",
        "Put the {add_labels} label on {pull_request}, please.",
        "Take the {remove_labels} label off {pull_request}.",
        "Rename {pull_request} to '{title}'.",
        "Change the description of {pull_request} to '{body}'.",
    ],
    tells=[
        '#{number} ("{title}") is {@draft} now.',
        '#{number} ("{title}") now has the label {@add_labels}.',
        'Took the {@remove_labels} label off #{number} ("{title}").',
        'Renamed #{number} to "{@title}".',
        'Updated the description of #{number} ("{title}").',
    ],
    words={"draft": {True: "a draft", False: "ready for review"}},
    values={"title": PR_TITLES, "body": PR_BODIES, "add_labels": LABELS},
)
say.tool(
    "close_pull_request",
    asks=[
        "Close {pull_request} without merging.",
        "We won't do {pull_request}; close it.",
        "Please close {pull_request}, it's been replaced.",
        "Close {pull_request}, the approach didn't work out.",
        "Shut {pull_request}, we're not merging it.",
    ],
    tells=['Closed #{number} ("{title}") without merging; the {head_branch} branch is still there.'],
)
say.tool(
    "update_branch",
    asks=[
        "Bring {pull_request} up to date with its base branch.",
        "Update the branch of {pull_request} with the latest from its base.",
        "{pull_request} is behind; update its branch.",
        "Merge the base branch into {pull_request} so it's current.",
        "Can you update {pull_request} with its base? The checks should run on the latest code.",
    ],
    tells=[
        "Merged the latest {base_branch} into {head_branch}; as of now #{number} is {mergeable_state:state}.",
    ],
)
say.tool(
    "merge_pull_request",
    confirms=[
        "merge {@pull_request} and delete its branch{delete_branch:yes}",
        "merge {@pull_request}",
    ],
    asks=[
        "Merge {pull_request}.",
        "Go ahead and merge {pull_request}.",
        "Merge {pull_request} {method}.",
        "Merge {pull_request} and {delete_branch}.",
        "{pull_request} is approved, please merge it {method}.",
        "Merge {pull_request}, but only if its head is still {expected_head_sha}.",
    ],
    tells=[
        'Merged #{number} ("{title}") into {base_branch} and deleted {head_branch}.{branch_deleted:yes}',
        'Merged #{number} ("{title}") into {base_branch}.',
    ],
    words={
        "method": {"merge": "with a merge commit", "squash": "as a squash", "rebase": "by rebasing"},
        "delete_branch": {True: "delete its branch afterwards", False: "keep its branch"},
    },
)

# -- reviews and checks -------------------------------------------------------------------------
say.tool(
    "request_reviewers",
    asks=[
        "Ask {reviewers} to review {pull_request}.",
        "Request a review of {pull_request} from {reviewers}.",
        "Can {reviewers} take a look at {pull_request}?",
        "Add {reviewers} as reviewers on {pull_request}, they know that code.",
        "{pull_request} needs eyes; request {reviewers}.",
    ],
    tells=["Asked {@reviewers} to review {@pull_request}."],
)
say.tool(
    "submit_review",
    asks=[
        "I've read {pull_request}; {event}.",
        "Review {pull_request} for me and {event}: '{body}'",
        "Submit my review of {pull_request}: {event}, with the note '{body}'.",
        "On {pull_request}, {event} and say '{body}'.",
        "I went through {pull_request}. Please {event}.",
    ],
    tells=[
        "Your review is in: you {state:state} {@pull_request}.",
    ],
    words={
        "event": {
            "approve": "approve it",
            "request_changes": "request changes",
            "comment": "comment without approving",
        }
    },
    values={"body": REVIEW_NOTES},
)
say.tool(
    "add_review_comment",
    asks=[
        "On {pull_request}, comment on line {line} of {path}: '{body}'",
        "Put a comment on {path}, line {line}, in {pull_request}: '{body}'",
        "In {pull_request}, add a note at {path}, line {line}: '{body}'",
        "Comment '{body}' on line {line} of {path} in {pull_request}.",
        "Flag line {line} of {path} in {pull_request} with '{body}'",
    ],
    tells=["Left your comment at {path}:{line} in {@pull_request}."],
    values={"body": LINE_NOTES},
)
say.tool(
    "list_checks",
    asks=[
        "Are the checks passing on {pull_request}?",
        "What's the CI status of {pull_request}?",
        "Are the checks green on {branch}?",
        "Which checks failed on {branch}?",
        "How are the checks doing on {pull_request}? I want to merge today.",
    ],
    tells=[
        "Everything is green on {@pull_request}{all_passing:yes}: {checks:list(name)} passed.",
        "Everything is green on {@branch}{all_passing:yes}: {checks:list(name)} passed.",
        "Not all green on {@pull_request}: {checks:list(name, status)}.",
        "Not all green on {@branch}: {checks:list(name, status)}.",
        "No checks have run on {@branch} yet.",
        "No checks have run on {@pull_request} yet.",
    ],
)
say.tool(
    "rerun_check",
    asks=[
        "Re-run {check}.",
        "{check} looks flaky, run it again.",
        "Please rerun {check}.",
        "Kick off {check} again.",
        "Can you retry {check}? I think it was a fluke.",
    ],
    tells=["Re-ran the {name} check: it {status:state} this time."],
)

# -- releases ---------------------------------------------------------------------------------------
say.tool(
    "list_releases",
    asks=[
        "What releases does {repo} have?",
        "What's the latest release of {repo}?",
        "List the releases of {repo}.",
        "Which versions of {repo} have we shipped?",
        "I need the last tag of {repo} for the changelog.",
    ],
    tells=[
        "{repo} has {releases:count(release)}: {releases:list(tag)}; the latest is {releases.0.tag}, "
        "from {releases.0.created_at:day}.",
        "{repo} has no releases yet.",
    ],
)
say.tool(
    "create_release",
    confirms=[
        "publish {tag} of {@repo} from {@target}",
        "publish {tag} of {@repo}",
    ],
    asks=[
        "Cut release {tag} of {repo}.",
        "Publish {tag} for {repo}.",
        "Tag {repo} as {tag} and call it '{name}'.",
        "Release {repo} {tag} from {target}.",
        "Please publish {tag} of {repo} as {prerelease}.",
        "We're shipping today: release {tag} of {repo} with the notes '{notes}'.",
    ],
    tells=[
        "Published {tag} of {repo_id} as a pre-release, from {target_branch}.{prerelease:yes}",
        'Published {tag} ("{@name}") of {repo_id} from {target_branch}.',
        "Published {tag} of {repo_id} from {target_branch}.",
    ],
    words={"prerelease": {True: "a pre-release", False: "a full release"}},
    values={
        "name": ("June release", "Spring cleanup", "Hotfix"),
        "notes": ("Bug fixes and performance work.", "Fixes the session timeout.", "See the changelog."),
    },
)
