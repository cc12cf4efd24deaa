"""How the people of a social network speak, and what its assistant tells them.

The user is the logged-in account: "my timeline", "my followers", "my notifications". They name
other people by handle ("@dana"), the one id everybody on the network holds and types, and a
post by what it said ('the post "Rainy morning, fresh coffee and a long book"'), never by its
internal number, its time stamp or how many likes it has. They log in with their email. The
assistant answers with what happened ("Posted. Your post is up on your profile."), the counts
and the people asked about, by handle and name, and nothing else.
"""

from __future__ import annotations

from servers.domains.social_media.model import Account, Follow, Login, Notification, Post, social_media
from servers.kit import Language

say = Language(social_media)

# -- naming things ------------------------------------------------------------------------------
# a person's handle is what everybody types; their display name is what a list shows beside it
say.names(Account, "{display_name}", held="{id}")
# the email an account signs in with, which its owner knows
say.names(Login, held="{id}", called="my email")
# a post by what it says (never "my ...": the generator cannot tell the user's own posts apart)
say.names(Post, 'the post "{content}"', 'the post that says "{content}"', called="a post")
say.names(Notification, "the {kind:state} notification from {actor_id}")

say.state(
    Follow,
    "status",
    active="you'll see their posts on your timeline now",
    pending="their account is private, so the request waits for their approval",
)
say.state(Account, "status", active="active", suspended="suspended", deactivated="deactivated")
say.state(
    Post,
    "visibility",
    public="for everyone to see",
    followers="for your followers only",
    mentioned="only for the people it mentions",
)
say.state(
    Notification,
    "kind",
    like="like",
    repost="repost",
    reply="reply",
    mention="mention",
    follow="new follower",
    follow_request="follow request",
)

VISIBILITY = {
    "public": "public",
    "followers": "followers-only",
    "mentioned": "visible only to the people I mention",
}
# a reply "mentioned" is seen only by the author of the post replied to
REPLY_VISIBILITY = {
    "public": "open to everyone",
    "followers": "visible to my followers only",
    "mentioned": "visible only to the author",
}
POSTS = (
    "Finally finished the marathon! Legs are gone, heart is full",
    "Rainy morning, coffee and nowhere to be. Perfect",
    "Made my grandmother's lemon cake and it tastes exactly like I remember",
    "Anyone know a good bike repair shop near the station?",
    "First swim in the lake this year. Freezing, would do it again",
    "Our little library box on the corner is full again, thanks neighbours",
    "Three weeks into learning Spanish and I can finally order coffee",
    "Planted tomatoes on the balcony, wish me luck",
    "The new bakery on Elm Street sells out by 9, set your alarms",
    "Just got back from the coast. Already miss the sound of the waves",
    "Big news: I'm starting a new job next month!",
    "Looking for podcast recommendations for a long drive this weekend",
)
REPLIES = (
    "Congrats, that's huge!",
    "Count me in for next time",
    "Where is this? It looks amazing",
    "Ha, same here this morning",
    "Thanks for sharing, saving this",
    "Can you send me the recipe?",
    "So happy for you!",
    "Try the shop on 5th Street, they're great",
    "This made my day",
    "Fair point, I hadn't thought of that",
)
TAGS = (["#goodnews"], ["#weekend"], ["#community"], ["#life"], ["#sundayfunday"], ["#weekend", "#goodnews"])
TOPICS = ("ramen", "sourdough", "coffee", "#hiking", "#coffee", "sunset", "guitar", "#travel", "bike lanes")
PEOPLE = (
    "runner",
    "amateur baker",
    "teacher",
    "designer",
    "nurse",
    "Portland",
    "Berlin",
    "film buff",
    "gardener",
)

# -- signing in and profiles ----------------------------------------------------------------------
say.tool(
    "login",
    asks=[
        "Log me in with {email}, password {password}.",
        "Sign me in using {email} and the password {password}.",
        "Can you log me in? Use {email} with the password {password}.",
        "Please sign in with {email}; my password is {password}.",
        "I got logged out. Sign me back in with {email}, password {password}.",
    ],
    tells=["You're logged in as {display_name} ({handle})."],
)
say.tool(
    "get_profile",
    asks=[
        "Show me {handle}'s profile.",
        "How many followers does {handle} have?",
        "Who is {handle}? Pull up their profile.",
        "Can you look up {handle} for me?",
        "I keep seeing {handle} in replies, what's their profile like?",
        "What does my profile look like?",
        "How many followers do I have?",
    ],
    tells=[
        "You have {followers:count(follower)}, follow {following:count(account)} and have "
        "{posts:count(post)} up; {pending_requests:count(follow request)} waiting for your approval.",
        "{display_name} ({handle}) has {followers:count(follower)}, follows {following:count(account)} "
        'and has {posts:count(post)}. Their bio says: "{bio}"',
        "{display_name} ({handle}) has {followers:count(follower)}, follows {following:count(account)} "
        "and has {posts:count(post)}.",
    ],
)
say.tool(
    "search_accounts",
    asks=[
        "Find people with {query} in their profile.",
        "Search for accounts matching {query}.",
        "I'm looking for people to follow. Search profiles for {query}.",
        "Look up accounts for {query}.",
        "Who on here mentions {query} in their profile?",
    ],
    tells=[
        "{accounts:count(account)} match: {accounts:list(display_name, id)}.",
        'No accounts match "{query}".',
    ],
    values={"query": PEOPLE},
)
say.tool(
    "get_account_stats",
    asks=[
        "How did {handle} do over the last {days} days?",
        "Give me {handle}'s stats.",
        "How much has {handle} been posting lately, and how many likes did they get?",
        "How have my posts done over the past {days} days?",
        "Show me my account stats.",
        "How many likes did my posts get in the last {days} days?",
    ],
    tells=[
        "Over the last {days} days you wrote {posts:count(post)}, {replies:count(reply)} and "
        "{reposts:count(repost)}, and got {likes_received:count(like)}, {reposts_received:count(repost)} "
        "and {replies_received:count(reply)}. You have {followers:count(follower)}.{@handle:no}",
        "Over the last {days} days {@handle} wrote {posts:count(post)}, {replies:count(reply)} and "
        "{reposts:count(repost)}, and got {likes_received:count(like)}, {reposts_received:count(repost)} "
        "and {replies_received:count(reply)}. They have {followers:count(follower)}.",
        "{handle} over the last {days} days: {posts:count(post)}, {replies:count(reply)} and "
        "{reposts:count(repost)} written; {likes_received:count(like)}, {reposts_received:count(repost)} "
        "and {replies_received:count(reply)} received. {followers:count(follower)} in all.",
    ],
    values={"days": (7, 14, 30, 60, 90)},
)

# -- reading ------------------------------------------------------------------------------------
say.tool(
    "get_home_timeline",
    asks=[
        "What's new on my timeline?",
        "Show me my feed.",
        "Show me the latest {limit} posts on my timeline.",
        "What have the people I follow been posting?",
        "Catch me up on my feed, I've been offline all weekend.",
        "What's on my timeline before {before_post}?",
        "Show me what came before {before_post} in my feed.",
    ],
    tells=[
        "The latest on your timeline: {posts:list(author, content)}.",
        "Your timeline is empty right now.",
    ],
)
say.tool(
    "get_account_posts",
    asks=[
        "What has {handle} been posting lately?",
        "Show me {handle}'s posts.",
        "Show me {handle}'s posts, {include_replies}.",
        "What has {handle} posted, {include_reposts}?",
        "Show me my own posts.",
        "List my posts, {include_replies}.",
        "What have I posted recently, {include_reposts}?",
    ],
    tells=[
        "{@handle}'s latest: {posts:list(content, created_at:day)}.",
        "The latest from {handle}: {posts:list(content, created_at:day)}.",
        "{@handle} has nothing you can see there.",
        "There's nothing from {handle} there.",
    ],
    words={
        "include_replies": {True: "replies included", False: "without replies"},
        "include_reposts": {True: "reposts included", False: "without reposts"},
    },
)
say.tool(
    "get_post",
    asks=[
        "Who replied to {post}?",
        "Show me {post} and its replies.",
        "How many likes did {post} get?",
        "What are people saying under {post}?",
        "Open {post} for me, I want to read the replies.",
    ],
    tells=[
        '"{content}" has {like_count:count(like)} and {reply_count:count(reply)}; '
        "the replies are from {replies_page.replies:list(author, content)}.",
        '"{content}" has {like_count:count(like)}, {repost_count:count(repost)} and no replies yet.',
        # a repost shows the original post inside it
        "The original has {post.like_count:count(like)} and {post.reply_count:count(reply)}; "
        "the replies are from {replies_page.replies:list(author, content)}.",
        "The original has {post.like_count:count(like)}, {post.repost_count:count(repost)} and no replies yet.",
    ],
)
say.tool(
    "search_posts",
    asks=[
        "Search posts for {query}.",
        "What are people saying about {query}?",
        "Find posts mentioning {query} from {author}.",
        "Has {author} posted anything about {query}?",
        "Any posts about {query} since {since_day}?",
        "I'm looking for posts mentioning {query}.",
    ],
    tells=[
        '{posts:count(post)} match "{query}": {posts:list(author, content)}.',
        'I found no posts about "{query}".',
    ],
    values={"query": TOPICS},
)

# -- posting --------------------------------------------------------------------------------------
say.tool(
    "create_post",
    asks=[
        "Post this: '{content}'",
        "Can you post '{content}' for me?",
        "Share '{content}' and tag it {tags}.",
        "Post '{content}', tagged {tags}.",
        "Post '{content}' and mention {mentions}.",
        "Put up a post saying '{content}', and make it {visibility}.",
        "Post '{content}' to my profile, {visibility}.",
        "Post '{content}', mention {mentions} and make it {visibility}.",
    ],
    tells=[
        "Posted, mentioning {mentions:list(handle)}. Your post is up on your profile.",
        "Posted with {tags:list(tag)}. Your post is up on your profile.",
        "Posted. Your post is up on your profile, {visibility:state}.",
        "Posted. Your post is up on your profile.",
    ],
    words={"visibility": VISIBILITY},
    values={"content": POSTS, "tags": TAGS},
)
say.tool(
    "reply_to_post",
    asks=[
        "Reply to {post} with '{content}'.",
        "Answer {post}: '{content}'",
        "Write '{content}' under {post}.",
        "Can you reply '{content}' to {post}?",
        "I want to respond to {post}. Say '{content}'.",
        "Reply '{content}' to {post}, but make it {visibility}.",
    ],
    tells=["Replied. Your reply is up under that post, {visibility:state}."],
    words={"visibility": REPLY_VISIBILITY},
    values={"content": REPLIES},
)
say.tool(
    "delete_post",
    asks=[
        "Delete my post {post}.",
        "Please take down my post {post}.",
        "I regret putting up {post}, please delete it.",
        "Remove my post {post} from my profile.",
        "Get rid of my post {post}, it had a typo.",
    ],
    tells=["Deleted. Nobody can see that post anymore."],
)
say.tool(
    "repost",
    asks=[
        "Repost {post}.",
        "Share {post} with my followers.",
        "Repost {post}, more people should see it.",
        "Can you boost {post} to my followers?",
        "I love {post}, repost it please.",
    ],
    tells=['Reposted "{post.content}"; your followers will see it on their timelines.'],
)
say.tool(
    "undo_repost",
    asks=[
        "Undo my repost of {post}.",
        "Take back my repost of {post}.",
        "I reposted {post} by mistake, remove my repost.",
        "Please remove my repost of {post}.",
        "Un-share {post} from my profile.",
    ],
    tells=["Your repost is gone; the original post stays up."],
)
say.tool(
    "like_post",
    asks=[
        "Like {post}.",
        "Give {post} a like.",
        "Please like {post} for me.",
        "Hit the like button on {post} for me.",
        "Can you like {post}? It made my day.",
    ],
    tells=["Liked. The post has {likes:count(like)} now."],
)
say.tool(
    "unlike_post",
    asks=[
        "Unlike {post}.",
        "Remove my like from {post}.",
        "I liked {post} by accident, take it back.",
        "Please undo my like on {post}.",
        "Take my like off {post}.",
    ],
    tells=["Done, your like is gone; the post has {likes:count(like)} now."],
)

# -- notifications --------------------------------------------------------------------------------
say.tool(
    "get_notifications",
    asks=[
        "Show me my notifications.",
        "Show me {unread_only} notifications.",
        "What's new in my notifications?",
        "Show me my {kind} notifications.",
        "Did I get any {kind} notifications?",
        "Show me {unread_only} {kind} notifications.",
    ],
    tells=[
        "{notifications:count(notification)}, latest first: {notifications:list(actor_id, kind, at:when)}. "
        "You have {unread:count(unread notification)} in all.",
        "There's nothing there; you have {unread:count(unread notification)} in all.",
    ],
    words={
        "unread_only": {True: "my unread", False: "all of my"},
        "kind": {
            "like": "like",
            "repost": "repost",
            "reply": "reply",
            "mention": "mention",
            "follow": "new follower",
            "follow_request": "follow-request",
        },
    },
)
say.tool(
    "mark_notifications_read",
    asks=[
        "Mark all my notifications as read.",
        "Clear out my notifications, mark them all as read.",
        "I've seen everything, mark my notifications as read.",
        "Please mark every notification as read.",
        "Set all my notifications to read.",
    ],
    tells=[
        "Done, {marked_read:count(notification)} marked as read; {unread:count(unread notification)} left."
    ],
)

# -- following ------------------------------------------------------------------------------------
say.tool(
    "follow_account",
    asks=[
        "Follow {handle}.",
        "Start following {handle} for me.",
        "I met {handle} at the meetup, follow them please.",
        "Can you follow {handle}?",
        "Add {handle} to the people I follow.",
    ],
    tells=["Follow sent to {@handle}; {status:state}.", "Follow sent to {followee_id}; {status:state}."],
)
say.tool(
    "unfollow_account",
    asks=[
        "Unfollow {handle}.",
        "Stop following {handle}.",
        "I don't want {handle} in my feed anymore, unfollow them.",
        "Please unfollow {handle}.",
        "Can you unfollow {handle} for me?",
    ],
    tells=["You no longer follow {@handle}.", "You no longer follow {unfollowed}."],
)
say.tool(
    "list_follows",
    asks=[
        "Who follows {handle}?",
        "Show me {handle}'s {direction}.",
        "Pull up {handle}'s {direction}.",
        "Who follows me?",
        "Show me my {direction}.",
        "Pull up my {direction}, I want to do some tidying.",
    ],
    tells=[
        "{@handle}'s {@direction}: {accounts:count(account)}, most recently {accounts:list(display_name, id)}.",
        "{@handle} has {accounts:count(follower)}, most recently {accounts:list(display_name, id)}.",
        "{handle}'s {@direction}: {accounts:count(account)}, most recently {accounts:list(display_name, id)}.",
        "{handle} has {accounts:count(follower)}, most recently {accounts:list(display_name, id)}.",
        "There's nobody there yet.",
    ],
    words={"direction": {"followers": "follower list", "following": "following list"}},
)
say.tool(
    "list_follow_requests",
    asks=[
        "Who wants to follow me?",
        "Show me my pending follow requests.",
        "Who is still waiting for me to let them follow me?",
        "Do I have any follow requests?",
        "Show me the first {limit} follow requests waiting for me.",
    ],
    tells=[
        "{requests:count(follow request)} waiting for your approval: {requests:list(display_name, id)}.",
        "Nobody is waiting for you to approve a follow request.",
    ],
)
say.tool(
    "respond_to_follow_request",
    asks=[
        "Go ahead and {action} the follow request from {handle}.",
        "Someone asked to follow me: {handle}. Please {action} it.",
        "Please {action} {handle}'s follow request.",
        "I know {handle}, {action} their request.",
        "Could you {action} {handle}'s request to follow me?",
    ],
    tells=[
        "Approved: {approved} follows you now.",
        "Declined: {denied} won't follow you, and they don't get told.",
    ],
    words={"action": {"approve": "approve", "deny": "decline"}},
)

# -- blocking and muting --------------------------------------------------------------------------
say.tool(
    "block_account",
    asks=[
        "Block {handle}.",
        "I never want to hear from {handle} again, block them.",
        "Please block {handle}, they keep harassing me.",
        "Can you block {handle}?",
        "Block {handle} for me, it's a spam account.",
    ],
    tells=[
        "{@handle} is blocked: you won't see each other's posts, and any follows between you are gone.",
        "{target_id} is blocked: you won't see each other's posts, and any follows between you are gone.",
    ],
)
say.tool(
    "unblock_account",
    asks=[
        "Unblock {handle}.",
        "Lift my block on {handle}.",
        "We made up, unblock {handle}.",
        "Please unblock {handle}.",
        "Can you unblock {handle}? I blocked them by mistake.",
    ],
    tells=[
        "{@handle} is unblocked. Earlier follows aren't restored, so follow them again if you like.",
        "{unblocked} is unblocked. Earlier follows aren't restored, so follow them again if you like.",
    ],
)
say.tool(
    "mute_account",
    asks=[
        "Mute {handle}.",
        "Mute {handle}, I don't want to see their posts in my feed anymore.",
        "Please mute {handle}, they post way too much.",
        "Can you mute {handle} for a while?",
        "Hide {handle}'s posts from my timeline.",
    ],
    tells=[
        "{@handle} is muted: their posts stay off your timeline, and they aren't told.",
        "{target_id} is muted: their posts stay off your timeline, and they aren't told.",
    ],
)
say.tool(
    "unmute_account",
    asks=[
        "Unmute {handle}.",
        "I want to see {handle}'s posts in my feed again, unmute them.",
        "Please unmute {handle}.",
        "Can you unmute {handle}?",
        "Bring {handle} back into my timeline.",
    ],
    tells=[
        "{@handle} is unmuted; their posts will show on your timeline again.",
        "{unmuted} is unmuted; their posts will show on your timeline again.",
    ],
)
