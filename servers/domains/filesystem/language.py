"""How the person at the shell speaks, and what their assistant tells them.

The user is the one signed-in account, working on their own files. Their words for things are
paths ("~/Notes/todo.md", "Downloads") and plain requests from someone who is not necessarily a
shell expert: "what's in my Downloads folder?", "make a copy of notes.md in /tmp", "how big is
Projects?". Flags are said as what they do ("add it as a new line at the end", "roughly"), never
as option names. The assistant answers with the fact asked for: a count and a few names for a
listing, a size, who owns a file, what a file says; never a dump of the result's fields.
"""

from __future__ import annotations

from servers.domains.filesystem.model import Group, Node, User, filesystem
from servers.kit import Language

say = Language(filesystem)


# -- naming things -------------------------------------------------------------------------------
# paths are the user's own words for their files; user and group names are handles people know
say.names(Node, "{path}")
say.names(User, "{id}")
say.names(Group, "the {id} group")

say.state(Node, "kind", file="file", dir="folder", symlink="shortcut")
# the shell's "." and ".." as people say them (in requests and in answers that repeat a path)
say.state(Node, "path", **{".": "the current folder", "..": "the folder above this one"})

# -- where am I, who am I ------------------------------------------------------------------------
say.tool(
    "pwd",
    asks=["Where am I right now?", "Which folder am I in?", "What's my current folder?"],
    tells=["You're in {cwd}."],
)
say.tool(
    "cd",
    asks=[
        "Go to {path}.",
        "Take me to {path}.",
        "Switch to {path}, I want to work in there.",
        "Open the folder {path} so I can work there.",
        "Change into {path}, please.",
        "Take me back to my home folder.",
    ],
    tells=["You're now in {cwd}."],
)
say.tool(
    "pushd",
    asks=[
        "Go to {path}, but remember where I am now so I can come back.",
        "Hop over to {path} for a bit; I'll want to come back here after.",
        "Switch to {path} and keep my place here.",
        "I need to work in {path} for a minute. Remember this folder for me.",
        "Take me to {path}, and save the current folder so I can return to it.",
    ],
    tells=["You're now in {cwd}; I saved where you were so you can go back."],
)
say.tool(
    "popd",
    asks=[
        "Go back to the folder I was in before.",
        "Take me back to where I was.",
        "I'm done here, return to the folder I saved.",
    ],
    tells=["You're back in {cwd}."],
)
say.tool(
    "dirs",
    asks=[
        "Which folders have I saved to come back to?",
        "Show me my stack of saved folders.",
        "What folders am I keeping my place in?",
    ],
    tells=["Here's your folder stack, starting with where you are now: {stack:list(path)}."],
)
say.tool(
    "whoami",
    asks=["Who am I logged in as?", "Which account am I using right now?", "What's my username here?"],
    tells=["You're logged in as {user}; your home folder is {home}."],
)
say.tool(
    "id",
    asks=[
        "What groups am I in?",
        "Which groups do I belong to?",
        "What groups is {user} in?",
        "Which groups does {user} belong to?",
        "I want to share a folder with {user}. Which groups are they in?",
        "Is {user} in any shared groups? List them for me.",
    ],
    tells=["The {user} account is in {groups:count(group)}: {groups:list(name)}."],
)
say.tool(
    "su",
    asks=[
        "Log me in as {user}; the password is {password}.",
        "Switch me over to the {user} account, password {password}.",
        "I need to act as {user} for a bit. Their password is {password}.",
        "Become {user}, please. The password is {password}.",
        "Switch to {user} (password {password}).",
    ],
    tells=["You're now working as {user}; their home folder is {home}."],
)
say.tool(
    "umask",
    asks=[
        "From now on, make the files I create {mask}.",
        "I want new files to be {mask}. Set my umask for that.",
        "Set things up so everything I create is {mask}.",
        "Change my umask so new files come out {mask}.",
        "Can you make sure new files I make are {mask}?",
    ],
    tells=["Your umask is now {umask}: new files will be {new_files} and new folders {new_directories}."],
    words={
        "mask": {
            "077": "private to me",
            "022": "readable by everyone but writable only by me",
            "027": "readable by my group and hidden from everyone else",
        }
    },
    values={"mask": ("077", "022", "027")},
)

# -- looking around ------------------------------------------------------------------------------
say.tool(
    "ls",
    asks=[
        "What's in {path}?",
        "What do I have in {path}?",
        "Show me what's in {path}, {all}.",
        "List {path} for me, {sort}.",
        "What's in {path}? Show the {long}.",
        "I'm looking for something in {path}. What's in there, {sort}?",
        "What's in this folder?",
    ],
    tells=[
        "There are {total} items in {path}: {entries:list(name)}.",
        "There's nothing in {path}.",
    ],
    words={
        "all": {True: "hidden files too", False: "without the hidden files"},
        "long": {True: "sizes, owners and permissions too", False: "names only"},
        "sort": {"name": "in alphabetical order", "size": "biggest first", "mtime": "newest first"},
    },
)
say.tool(
    "tree",
    asks=[
        "Show me how {path} is laid out.",
        "Draw me the folder structure of {path}.",
        "What does the tree under {path} look like, {depth}?",
        "Give me an overview of {path}, folders and files.",
        "I'm new to {path}. Show me its structure, {depth}.",
        "Show me the structure of {path}, {all}.",
    ],
    tells=[
        "Here's how {path} is laid out ({directories} folders, {files} files):\n\n```\n{tree}\n```",
        "Here's the layout ({directories} folders, {files} files):\n\n```\n{tree}\n```",
    ],
    words={
        "depth": {1: "just one level deep", 2: "two levels deep", 3: "three levels deep"},
        "all": {True: "hidden files included", False: "leaving out hidden files"},
    },
    values={"depth": (1, 2, 3)},
)
say.tool(
    "stat",
    asks=[
        "Who owns {path}, and what are its permissions?",
        "When was {path} last changed?",
        "Give me the details of {path}: size, owner, permissions.",
        "How big is {path}, and who owns it?",
        "I can't tell whether {path} is mine. Can you check its details?",
    ],
    tells=[
        "It's a {type} of {size} bytes, owned by {owner} in the {group} group, with the permissions "
        "{permissions}; it was last changed {modified:day}.",
    ],
)
say.tool(
    "realpath",
    asks=[
        "What's the full path of {path}?",
        "Where does {path} really live? I want the absolute path.",
        "Give me the complete path to {path}.",
        "I need the full path of {path} for a config file.",
        "What's the real location of {path}, links resolved?",
    ],
    tells=["The full path of {path} is {realpath}."],
)
say.tool(
    "readlink",
    asks=[
        "Where does the shortcut '{path}' point?",
        "What does {path} link to?",
        "Isn't '{path}' a link? Where does it go?",
        "Check where the link {path} leads.",
        "I think {path} is a broken link. What's its target?",
    ],
    tells=["The link points to {target}."],
)
say.tool(
    "du",
    asks=[
        "How big is {path}, {human_readable}?",
        "I think {path} is eating my disk. How much space does it take up, {human_readable}?",
        "How much disk space is {path} using, {human_readable}?",
        "I'm running low on space. How large is {path}, {human_readable}?",
        "What's the total size of {path}, {human_readable}?",
    ],
    tells=["It takes up {total} in all."],
    words={"human_readable": {True: "roughly", False: "to the exact byte"}},
    values={"human_readable": (True,)},
)
say.tool(
    "df",
    asks=[
        "How much free space is left on the disks?",
        "Is the USB stick full?",
        "How much room do I have left on each drive?",
        "Am I running out of disk space?",
        "How full are the disks on this machine?",
    ],
    tells=[
        "There are {volumes:count(disk)} ({volumes:list(mounted_on)}), with {volumes:list(available)} "
        "free respectively.",
    ],
)
say.tool(
    "file",
    asks=[
        "What kind of file is {path}?",
        "Is {path} text or something binary?",
        "I don't recognise {path}. What type of file is it?",
        "What's {path}? An image, text, an archive?",
        "Can you tell me what sort of file {path} is before I open it?",
    ],
    tells=["I checked {path}: it's {type}."],
)

# -- reading files -------------------------------------------------------------------------------
say.tool(
    "cat",
    asks=[
        "Show me {path}.",
        "What does {path} say?",
        "Open {path} for me, I want to read it.",
        "Can you print out {path}?",
        "What's written in {path}?",
    ],
    tells=["Here's {path}:\n\n```\n{text}\n```", "It's empty."],
)
say.tool(
    "head",
    asks=[
        "Show me the top of {path}.",
        "What's at the start of {path}?",
        "Show me the first {lines} lines of {path}.",
        "I only need the beginning of {path}. The first {lines} lines will do.",
        "Peek at the first few lines of {path}.",
    ],
    tells=["Here are the first {lines} lines of {path}:\n\n```\n{text}\n```", "It's empty."],
    values={"lines": (3, 5, 10, 20)},
)
say.tool(
    "tail",
    asks=[
        "Show me the end of {path}.",
        "What are the latest entries in {path}?",
        "Show me the last {lines} lines of {path}.",
        "Something just broke. What are the last {lines} lines of {path}?",
        "What's at the bottom of {path}?",
    ],
    tells=["Here are the last {lines} lines of {path}:\n\n```\n{text}\n```", "It's empty."],
    values={"lines": (3, 5, 10, 20)},
)
say.tool(
    "wc",
    asks=[
        "How long is {path}?",
        "How many {mode} are in {path}?",
        "Count the {mode} in {path} for me.",
        "I'm checking against a limit. How many {mode} does {path} have?",
        "Tell me how many {mode} {path} has.",
    ],
    tells=[
        "There are {lines} lines, {words} words and {bytes} bytes in {path}.",
        "There are {lines} lines in {path}.",
        "There are {words} words in {path}.",
        "It's {bytes} bytes.",
    ],
    words={"mode": {"l": "lines", "w": "words", "c": "bytes", "all": "lines, words and bytes"}},
)
say.tool(
    "grep",
    asks=[
        "Does {path} mention '{pattern}' anywhere?",
        "Find the lines with '{pattern}' in {path}.",
        "Where in {path} does '{pattern}' come up?",
        "Search {path} for '{pattern}', {ignore_case}.",
        "I need every line of {path} that has '{pattern}' in it.",
    ],
    tells=[
        "'{pattern}' appears {matches:count(time)} in {path} (at line {matches:list(line)}).",
        "No line in {path} mentions '{pattern}'.",
    ],
    words={"ignore_case": {True: "upper or lower case", False: "exact case only"}},
    values={"pattern": ("TODO", "budget", "import", "ERROR", "before", "config", "deadline")},
)
say.tool(
    "find",
    asks=[
        "Find all the {name} under {path}.",
        "Where are my {name} in {path}?",
        "Which {type} in {path} were changed in the last {modified_within_days}?",
        "What's bigger than {min_size} in {path}? I need to free up space.",
        "List the {type} under {path}.",
        "What under {path} belongs to {owner}?",
        "Find the {name} in {path} that changed in the last {modified_within_days}.",
    ],
    tells=[
        "I found {entries:count(match)} under {path}: {entries:list(path)}.",
        "I found {entries:count(match)}: {entries:list(path)}.",
        "Nothing under {path} matches.",
        "Nothing matches.",
    ],
    words={
        "name": {
            "*.py": "Python files",
            "*.md": "Markdown files",
            "*.csv": "CSV files",
            "*.txt": "text files",
            "*.tar": "tar archives",
            "README*": "README files",
        },
        "type": {"f": "files", "d": "folders", "l": "shortcuts"},
        "modified_within_days": {1: "day", 7: "week", 30: "month", 90: "three months"},
        "min_size": {10_000: "10 KB", 100_000: "100 KB", 1_000_000: "1 MB"},
    },
    values={
        "name": ("*.py", "*.md", "*.csv", "*.txt", "*.tar", "README*"),
        "modified_within_days": (1, 7, 30, 90),
        "min_size": (10_000, 100_000, 1_000_000),
    },
)
say.tool(
    "diff",
    asks=[
        "What's different between {path_a} and {path_b}?",
        "Compare {path_a} with {path_b}.",
        "Are {path_a} and {path_b} the same?",
        "I think {path_b} was edited. How does it differ from {path_a}?",
        "Show me what changed from {path_a} to {path_b}.",
    ],
    tells=[
        "Here's how {path_b} differs from {path_a}:\n\n```\n{text}\n```",
        "The two files differ, but they're binary, so there are no lines to show.",
        "The two files are identical.",
    ],
)
say.tool(
    "sort",
    asks=[
        "Sort the lines of {path} for me.",
        "Show me {path} sorted by {field}, {numeric}.",
        "Sort {path} by {field}, {reverse}, {header}.",
        "Show me {path} in order, {unique}.",
        "I want {path} sorted, {header}.",
    ],
    tells=["Here are the {lines} lines of {path}, sorted:\n\n```\n{text}\n```"],
    words={
        "field": {1: "the first column", 2: "the second column", 3: "the third column"},
        "numeric": {True: "as numbers", False: "alphabetically"},
        "reverse": {True: "in descending order", False: "in ascending order"},
        "header": {True: "keeping the header row on top", False: "header row sorted in with the rest"},
        "unique": {True: "without duplicate lines", False: "duplicates kept"},
    },
    values={"field": (1, 2, 3)},
)
say.tool(
    "uniq",
    asks=[
        "Drop the repeated lines in {path}; only ones right next to each other.",
        "Show me {path} with back-to-back duplicate lines collapsed.",
        "Squash the repeated neighbouring lines in {path}, {count}.",
        "There are lines repeated one after another in {path}. Show it without the repeats.",
        "Collapse the consecutive duplicates in {path}, {count}.",
    ],
    tells=["Without the repeats, {path} comes down to {lines} lines:\n\n```\n{text}\n```"],
    words={"count": {True: "and show how many times each one repeats", False: "without any counts"}},
)
say.tool(
    "md5sum",
    asks=[
        "What's the MD5 checksum of {path}?",
        "I want to make sure {path} isn't corrupted. What's its MD5?",
        "Give me the MD5 hash of {path}.",
        "Compute the MD5 of {path} so I can compare it.",
        "What MD5 does {path} have?",
    ],
    tells=["The MD5 of {path} is {md5}."],
)

# -- changing files ------------------------------------------------------------------------------
say.tool(
    "touch",
    asks=[
        "Create an empty file called {path}.",
        "Make a blank file named {path}; I'll fill it in later.",
        "Start a new empty file {path}.",
        "I need an empty {path} file. Can you create it?",
        "Can you create {path} for me? Just an empty file for now.",
    ],
    tells=["Created the empty file {path}."],
    values={
        "path": (
            "todo.txt",
            "ideas.md",
            "~/Notes/shopping-list.txt",
            "~/Documents/draft.md",
            "meeting-notes.md",
        )
    },
)
say.tool(
    "mkdir",
    asks=[
        "Make a folder called {path}.",
        "Create a new folder {path}.",
        "I need a folder {path} to keep things tidy.",
        "Create the folder {path}, {parents}.",
        "Set up a folder {path} for me, {parents}.",
    ],
    tells=[
        "I created {created:count(folder)}: {created:list(path)}.",
        "That folder already exists, so there was nothing to create.",
    ],
    words={
        "parents": {True: "and any missing folders above it", False: "but only if the folder above exists"}
    },
    values={
        "path": (
            "Archive",
            "~/Documents/taxes",
            "Receipts",
            "~/Photos/2026",
            "old-stuff",
            "~/Documents/taxes/2026",
        )
    },
)
say.tool(
    "echo",
    asks=[
        "Write '{text}' {append} {path}.",
        "Put '{text}' {append} {path}, please.",
        "Note down '{text}' {append} {path}; I don't want to forget it.",
        "Replace everything in {path} with the line '{text}'.",
        "Overwrite {path} so it just says '{text}'.",
        "Can you add '{text}' {append} {path}?",
    ],
    tells=["Saved '{text}' to {path}."],
    words={"append": {True: "as a new line at the end of", False: "as the only line of"}},
    values={
        "text": (
            "meeting moved to 3pm",
            "call the landlord on Monday",
            "TODO: update the README",
            "buy printer paper",
            "deadline moved to Friday",
            "back up the photos this weekend",
        )
    },
)
say.tool(
    "replace_in_file",
    asks=[
        "In {path}, change '{old}' to '{new}'.",
        "Replace '{old}' with '{new}' everywhere in {path}.",
        "There's still '{old}' in {path}; it should say '{new}'. Can you fix that?",
        "Swap every '{old}' in {path} for '{new}'.",
        "Update {path}: '{old}' becomes '{new}'.",
        "In {path}, replace '{old}' with '{new}', but {count} it appears.",
    ],
    tells=["In {path}, '{old}' now reads '{new}'."],
    words={
        "count": {1: "only the first time", 2: "only the first two times", 3: "only the first three times"}
    },
    values={"old": ("TODO",), "new": ("DONE", "FIXME", "NOTE"), "count": (1, 2, 3)},
)
say.tool(
    "rm",
    asks=[
        "Delete {path}.",
        "I don't need {path} anymore, delete it.",
        "Get rid of {path}.",
        "Remove {path}, it's an old copy.",
        "Please delete the file {path}.",
    ],
    tells=["Deleted {removed}."],
)
say.tool(
    "rmdir",
    asks=[
        "Remove the empty folder {path}.",
        "I emptied {path}, so delete it now.",
        "Get rid of the empty folder {path}.",
        "Delete the folder {path}; there's nothing in it.",
        "Clean up: remove {path}, it's an empty folder.",
    ],
    tells=["The empty folder {removed} is gone."],
)
say.tool(
    "mv",
    asks=[
        "Move {source} to {destination}.",
        "Put {source} in {destination}.",
        "This belongs in {destination}: move {source} there.",
        "Can you move {source} over to {destination}?",
        "I'm tidying up. Move {source} into {destination}.",
    ],
    tells=["Moved {source} to {destination}."],
    values={"destination": ("~/Documents", "~/Notes", "~/Downloads", "/tmp", "~/Photos")},
)
say.tool(
    "cp",
    asks=[
        "Copy {source} to {destination}.",
        "Make a copy of {source} in {destination}.",
        "Put a copy of {source} in {destination}, just in case.",
        "I want a backup of {source}. Copy it into {destination}.",
        "Copy {source} over to {destination}, keeping its permissions and date {preserve}.",
        "Copy {source} into {destination}, {no_clobber}.",
    ],
    tells=["Copied {copied} to {to}."],
    words={
        "preserve": {True: "as they are", False: "fresh"},
        "no_clobber": {
            True: "but don't overwrite anything already there",
            False: "replacing any file already there",
        },
    },
    values={
        "destination": ("~/Documents", "/tmp", "~/Downloads", "~/Notes", "/mnt/usb/backups"),
        "preserve": (True,),
    },
)
say.tool(
    "ln",
    asks=[
        "Make a shortcut called {link_path} that points to {target}.",
        "Create a link {link_path} to {target} so I can get there quickly.",
        "I keep opening {target}. Add a shortcut to it named {link_path}.",
        "Link {link_path} to {target}.",
        "Set up a symlink {link_path} pointing at {target}.",
    ],
    tells=["The shortcut {link_path} now points to {target}."],
    values={"link_path": ("latest", "shortcut", "~/quick-link", "~/Documents/current-notes")},
)
say.tool(
    "chmod",
    asks=[
        "Make {path} {mode}.",
        "Change the permissions on {path} so it's {mode}.",
        "I want {path} to be {mode}. Can you set that?",
        "Fix the permissions of {path}: it should be {mode}.",
        "Set {path} to be {mode}.",
    ],
    tells=["The permissions on {path} are now {permissions} ({mode} in octal)."],
    # symbolic changes, so that a folder keeps the x bit it needs whatever is asked
    words={
        "mode": {
            "go-rwx": "private to me",
            "o-rwx": "off-limits to anyone outside my group",
            "go-w": "not writable by anyone but me",
            "g+w": "editable by my group too",
            "a+r": "readable by everyone",
            "u+x": "executable",
        }
    },
    values={"mode": ("go-rwx", "o-rwx", "go-w", "g+w", "a+r", "u+x")},
)
say.tool(
    "chown",
    asks=[
        "Give {path} to {owner}.",
        "Make {owner} the owner of {path}.",
        "Make {owner} the new owner of {path}; they're taking it over.",
        "Transfer ownership of {path} to {owner}.",
        "Hand {path} over to {owner}, and put it in the {group} group.",
    ],
    tells=["Now {owner} owns {path}, in the {group} group."],
)
say.tool(
    "chgrp",
    asks=[
        "Put {path} in the {group} group.",
        "Share {path} with the {group} group.",
        "Change the group of {path} to {group}.",
        "I want the {group} group to have access to {path}. Switch its group.",
        "The {group} group should own {path} now. Change its group.",
    ],
    tells=["The group of {path} is now {group}."],
)

# -- archives ------------------------------------------------------------------------------------
say.tool(
    "tar_create",
    asks=[
        "Pack {sources} into an archive called {archive_path}.",
        "Make a tar archive {archive_path} of {sources}.",
        "I want to back up {sources}. Bundle them into {archive_path}.",
        "Put {sources} together in one archive, {archive_path}.",
        "Archive {sources} as {archive_path} so I can send it.",
    ],
    tells=["I packed {sources:list(path)} into {archive}: {count} files and folders in all."],
    values={
        "archive_path": ("backup.tar", "~/notes-backup.tar", "/tmp/archive.tar", "~/Documents/old-files.tar"),
        "sources": (["~/Notes"], ["~/Documents"], ["~/Notes", "~/Documents"], ["~/Photos"]),
    },
)
say.tool(
    "tar_extract",
    asks=[
        "Unpack {archive_path}.",
        "Extract {archive_path} into {destination}.",
        "Open up the archive {archive_path} in {destination}.",
        "I need what's inside {archive_path}. Unpack it here.",
        "Unpack {archive_path} into {destination}, {overwrite}.",
    ],
    tells=[
        "I unpacked {extracted} files and folders from {archive} into {destination}.",
        "I unpacked {extracted} files and folders from {archive} into the current folder.",
    ],
    words={"overwrite": {True: "replacing any files already there", False: "without replacing anything"}},
)
