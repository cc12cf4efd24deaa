"""Team chat: a Slack-like workspace where the signed-in member reads and writes channels,
direct messages and threads.

Acting model: the ``sessions`` row names the signed-in member; the snapshot starts signed in as
the persona (world person 0, ``@sgould`` at seed 0), an ordinary member (not an admin). The
``logged_out`` variant starts with nobody signed in: every tool but ``login`` answers
"nobody is signed in; call login first". Members are the persona and her circle of the shared world (colleagues first), so
the people she chats with are the people she emails; a member is named by handle (``@dwhitfield``).
Conversations are ``CHN-`` ids; tools also take a channel's name (``#design`` or ``design``).

Reference moment: Monday 2026-06-01 09:00 (workspace time). The seed holds 60 days of history.

Rules the service enforces (error reasons echo Slack's error codes):

* Visibility: public channels are visible to everyone; private channels and DMs only to their
  members, and to anyone else they answer ``channel_not_found``, as if they did not exist.
* Channel names: lowercase letters, digits, hyphens and underscores (``invalid_name_specials``),
  at most 80 characters (``invalid_name_maxlength``), unique including archived channels
  (``name_taken``).
* Archived channels are read-only: posting, replying, reacting, editing, deleting, joining,
  leaving, inviting and topics are refused with ``is_archived``. #general cannot be archived
  (``cant_archive_general``) or left (``cant_leave_general``), and nobody is removed from it.
* Membership: writing in a conversation needs a seat in it (``not_in_channel``). Public channels
  can be joined; private ones need an invitation (``channel_is_private``). Inviting someone
  already in is ``already_in_channel``, inviting yourself ``cant_invite_self``; deactivated
  members cannot be invited or messaged (``user_is_deactivated``). Only a channel's creator or a
  workspace admin removes members (``restricted_action``); the last member of a private channel
  cannot leave it (``last_member``). Join, archive, invite, topic and removal are for channels,
  not DMs (``method_not_supported_for_channel_type``).
* DMs: a DM is you and one other person; a group DM 3 to 9 people including you
  (``too_many_users``). Opening one with exactly the same people returns the existing one.
* Threads are one level deep: replying to a reply joins the root's thread;
  ``also_send_to_channel`` shows the reply in the channel history too.
* Editing: only your own messages (``cant_update_message``), within ``edit_window_minutes`` of
  posting (1,440, ``edit_window_closed``). Deleting: your own, or any if you are an admin
  (``cant_delete_message``). A deleted message is ``message_not_found`` from then on.
* Reactions: emoji names ``[a-z0-9_+-]{1,32}`` (``invalid_name``), each at most once per member
  (``already_reacted``), at most 50 different emoji on a message (``too_many_emoji``).
* Text: 1 to 4,000 characters (``no_text``, ``msg_too_long``); topics and purposes up to 250.

Messages are append-only with tombstones. A message row is never rewritten: an edit appends a
``message_edits`` row (old and new text) and stamps the message's ``edited_at``; the latest
revision is the text every tool shows and searches. A delete sets ``deleted``/``deleted_at``
and tools show "This message was deleted." Those three are the only columns that change.
"""

from servers.domains.team_chat import account, channels, conversations, editing, search, seed
from servers.domains.team_chat.model import team_chat

# the modules that declare the domain; its tools are shown to agents in this order
team_chat.include(seed, account, channels, conversations, editing, search)

__all__ = ["team_chat"]

# the words its members use and its assistant answers with (read by the task generator)
from servers.domains.team_chat import language as _language  # noqa: E402,F401
