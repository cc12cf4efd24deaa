"""A multi-user POSIX-like file system driven through a shell session.

The agent works in a shell logged in as the persona (the Unix user named like the persona's
handle, home ``/home/<username>``). The ``sessions`` row is that shell: acting user, working
directory, previous directory (``cd -``), directory stack (``pushd``/``popd``) and umask. Every
path argument may be absolute (``/srv/shared``), start at a home (``~/notes.txt``,
``~dana/shared``) or be relative to the working directory (``Projects/app/README.md``, ``..``);
outputs write paths the same way, relative to the working directory when they are inside it.

Reference moment 2026-06-01 09:00; new and touched files get that modification time.

Rules (kernel semantics, checked for the acting user; root bypasses permission bits but never a
read-only volume):

- search (``x``) on every directory of a path; ``r`` to list a directory or read a file; ``w`` to
  change a file; ``w`` + ``x`` on the parent to create, remove or rename an entry; in a sticky
  directory (``/tmp``) only the entry's owner, the directory's owner or root may remove or rename it;
- ``chmod`` by the owner or root, ``chown`` by root only, ``chgrp`` by the owner to one of their groups;
- new files get ``0666 & ~umask``, new directories ``0777 & ~umask``, owned by the acting user and
  their primary group, or the parent's group (and setgid bit, for directories) under a setgid
  parent (``/srv/shared``);
- ``/mnt/archive`` is a read-only volume; ``/mnt/usb`` is a 64 MB stick that is nearly full, and a
  write that does not fit fails with "No space left on device" and changes nothing;
- symlinks are followed (8 hops at most); a dangling one is "No such file or directory";
- every command fails as a whole before writing anything (no half-done ``rm -r`` or ``cp -r``).

Reads never change anything (no access times, no history).
"""

from servers.domains.filesystem import archives, copying, editing, looking, reading, seed, shell
from servers.domains.filesystem.model import filesystem

# the modules that declare the domain; its tools are shown to agents in this order
filesystem.include(seed, shell, looking, reading, editing, copying, archives)

__all__ = ["filesystem"]

# the words its users speak and its assistant answers with (read by the task generator)
from servers.domains.filesystem import language as _language  # noqa: E402,F401
