"""Email: a mail server that hosts the mailboxes of the persona and the people she deals with.

Acting model: one session row says which mailbox is signed in (the snapshot starts signed in as
the persona, world person 0; ``login``/``logout`` switch, and the ``logged_out`` variant starts
with nobody signed in). Every tool acts on the signed-in mailbox and sees only its mail.

Reference moment: Monday 2026-06-01 09:00. Everything seeded happened before it; everything a
tool does happens at it (new rows are ordered by their ids).

Who is here: a mailbox (keyed by its address) for the persona and for the first people of her
circle in the shared world (colleagues first), the same people she chats with and follows in the
other apps. Further people of her circle write to her from addresses this server does not host.

Rules the service enforces:

* Sent and received mail is append-only: a message's headers, body and recipients never change
  after it is stored. Only its labels change (read/unread is the UNREAD label; archive removes
  INBOX; trash swaps INBOX for TRASH). Drafts are the only editable messages; sending a draft
  stores it as messages and the draft is gone.
* Sending stores a SENT copy for the sender and, for every recipient with a mailbox here, an
  INBOX + UNREAD copy in theirs (where their filters then run); addresses hosted elsewhere are
  sent out and not stored. Bcc appears on the sender's copy only. A recipient whose mailbox is
  full or suspended is not an error: a "Delivery Status Notification (Failure)" from the Mail
  Delivery Subsystem arrives in the sender's inbox, in the same thread.
* A message needs 1-100 recipients across to, cc and bcc; subjects are at most 250 characters,
  bodies 20,000; the attachments a message carries (a forward keeps the original's) total at
  most 25 MB. A suspended mailbox, or one that is full, cannot send.
* Replies and forwards keep the thread: a reply joins the original's thread, sets In-Reply-To to
  its Message-ID and prefixes "Re: " once ("Fwd: " for forwards); a recipient's copy joins the
  recipient's own thread of the message it answers. Reply-all never includes your own address;
  replying to your own message goes to its recipients. Drafts cannot be replied to.
* Labels: SENT and DRAFT cannot be put on or taken off by hand; TRASH only through trash and
  untrash; system labels cannot be created or deleted; your own labels' names are unique
  ignoring case and may not be a system label's. Deleting a label keeps its messages (without
  it) and deletes the filters that applied it. A message in the trash must be untrashed before
  its labels change; untrashing puts received mail back in the inbox, never your sent copies.
* Filters have at least one criterion (sender text, subject text) and exactly one action: label
  (with one of your own labels), archive, mark_read, trash or star. ``apply_to_existing`` runs a
  new filter over the mail already received (not the trash) and says how many messages changed.
* Contacts are unique by address per mailbox; an address with a mailbox here lends its display
  name, any other address needs a name.
* Search (``search_messages``) leaves out trash and spam unless asked (label:trash, in:spam,
  in:anywhere); unknown operators and malformed dates are errors that say what is supported.
"""

from servers.domains.email import account, composing, organizing, reading, seed
from servers.domains.email.model import email

# the modules that declare the domain; its tools are shown to agents in this order
email.include(seed, account, reading, composing, organizing)

__all__ = ["email"]

# the words its users use and its assistant answers with (read by the task generator)
from servers.domains.email import language as _language  # noqa: E402,F401
