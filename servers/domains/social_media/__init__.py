"""Social network: a logged-in account posts, replies, reposts and likes, follows, blocks and mutes
other accounts, and reads its home timeline, profiles, statistics and notifications (the shape of
Twitter/Mastodon, with BFCL TwitterAPI's post/retweet/comment/follow tools).

Acting model: one session row says which account is logged in. The snapshot starts logged in as
the persona (world person 0, with the world's handle and name); ``login`` switches account and the
``logged_out`` variant starts with nobody logged in, when every tool but ``login`` answers the kit's
"nobody is signed in; call login first". Accounts are keyed by their handle (``@dwhitfield``); the persona's
follows and followers are the start of her circle in the shared world (colleagues first), so the
people she follows here are the people she emails and chats with. Her account is private:
follow requests (a dozen or more) wait for her approval.

Reference moment: Monday 2026-06-01 09:00; the seed holds 90 days of posts before it. Nothing
happens by itself: other accounts do not post, like or follow during an episode.

Rules the service enforces:

* Posts and replies have 1-280 characters (not only spaces), at most 10 tags (``#`` then letters,
  digits or underscores) and 10 mentions (``@handle`` of an existing active account, not yourself).
  A ``mentioned`` post needs a mention. Suspended accounts can read but not post or interact.
* Visibility: ``public`` posts are for everyone, except that a private account's posts need an
  approved follow; ``followers`` posts are for approved followers; ``mentioned`` posts for the
  mentioned accounts. Authors always see their own posts. Posts of suspended or deactivated
  accounts are not shown.
* Reposts and likes happen once per post ("already reposted"); undoing needs an existing one.
  Only public posts of public accounts can be reposted. Likes, replies and reposts act on the
  original post, never on someone's repost of it.
* Blocks: neither side can follow, reply to, like or repost the other, and each other's posts vanish
  for both; blocking removes the follows between the two, both ways, for good.
* Follows: not yourself, not twice, at most 5,000; a private account gets a pending request that it
  approves or denies. Unfollowing also withdraws a pending request.
* Deleted posts take no likes, replies or reposts; only the author deletes, and reposts of a
  deleted post disappear with it.
* Likes, reposts, replies, mentions, follows and follow requests append a notification for the
  account they concern (never for your own actions). Reading notifications marks nothing.
* The home timeline holds the posts, replies and reposts of accounts you follow (approved) and your
  own, newest first by time then id; muted accounts (and reposts of their posts) are left out;
  page with ``before_post``.

Posts (with their tags and mentions) and notifications are append-only: deleting a post or undoing
a repost sets the post's ``deleted`` tombstone, and only a notification's ``read`` flag changes.
"""

from servers.domains.social_media import accounts, engagement, feeds, network, posts, seed
from servers.domains.social_media.model import social_media

# the modules that declare the domain; its tools are shown to agents in this order
social_media.include(seed, accounts, feeds, posts, engagement, network)

__all__ = ["social_media"]

# the words its users use and its assistant answers with (read by the task generator)
from servers.domains.social_media import language as _language  # noqa: E402,F401
