"""How a sales team speaks in its CRM, and what its assistant tells them.

The person at the keyboard is a sales manager (she runs team West and has her own book of
accounts). She names things the way the CRM shows them: accounts by company ("Henson Inc"),
contacts and leads by name, with the company or email when two share a name ("Angela Rojas at
Bray Group"), deals by their name ('the "Reese - Analytics Suite" deal') and stage ("Negotiation",
"Closed Won"), tasks by what they say ('the "Prepare quote for Jenny" task'), teammates by name
and teams by territory ("the West team"). She never knows a record's internal id. The assistant
answers with names, stages, amounts in dollars and days in words, and nothing else.
"""

from __future__ import annotations

from servers.domains.crm.model import (
    Account,
    Activity,
    Contact,
    Deal,
    Lead,
    Pipeline,
    Stage,
    Territory,
    User,
    crm,
)
from servers.kit import Language

say = Language(crm)

# -- naming things ------------------------------------------------------------------------------
say.names(User, "{name}")
say.names(Territory, "the {name} territory", "{name}")
say.names(Pipeline, "the {name}", "{name}")
say.names(Stage, "{name}", "the {name} stage")
say.names(Account, "{name}", "the {name} account", "{name} in {city}")
say.names(
    Contact,
    "{name}",
    "{name} at {account}",
    "{name} ({email})",
    "the contact {name}",
    shown=("account",),
)
say.names(Lead, "{name}", "the lead {name}", "{name} from {company_name}", "{name} ({email})")
say.names(Deal, 'the "{name}" deal', '"{name}"')
say.names(
    Activity,
    'the "{subject}" task',
    '"{subject}"',
    'the "{subject}" task due {due_on:day}',
)

# -- states -------------------------------------------------------------------------------------
STAGES = {
    "prospecting": "Prospecting",
    "qualification": "Qualification",
    "discovery": "Discovery",
    "proposal": "Proposal",
    "negotiation": "Negotiation",
    "contracting": "Contracting",
    "won": "Closed Won",
    "lost": "Closed Lost",
    "upcoming": "Renewal Upcoming",
    "quoted": "Quote Sent",
    "committed": "Verbal Commit",
    "renewed": "Renewed",
    "churned": "Churned",
}
PIPELINES = {"sales": "the sales pipeline", "renewals": "the renewals pipeline"}
TEAMS = {
    "west": "the West team",
    "central": "the Central team",
    "east": "the East team",
    "international": "the International team",
}
TERRITORIES = {
    "west": "the West territory",
    "central": "the Central territory",
    "east": "the East territory",
    "international": "the International territory",
}
LIFECYCLE = {
    "subscriber": "subscriber",
    "lead": "lead",
    "mql": "MQL",
    "sql": "SQL",
    "opportunity": "opportunity",
    "customer": "customer",
    "evangelist": "evangelist",
    "other": "'Other'",
}
LOST_REASONS = {
    "competitor": "they went with a competitor",
    "no_budget": "no budget",
    "timing": "bad timing",
    "no_decision": "they never made a decision",
    "product_fit": "not the right fit for them",
    "other": "another reason",
}

say.state(Deal, "stage_id", **STAGES)
say.state(Deal, "status", open="open", won="won", lost="lost")
say.state(Deal, "lost_reason", **LOST_REASONS)
say.state(Account, "tier", smb="small-business", mid_market="mid-market", enterprise="enterprise")
say.state(
    Account, "type", prospect="prospect", customer="customer", partner="partner", internal="our own company"
)
say.state(Contact, "lifecycle_stage", **LIFECYCLE)
say.state(Pipeline, "id", **PIPELINES)  # the pipeline a summary reads, said in its words
say.state(
    Lead,
    "status",
    new="new",
    working="being worked",
    nurturing="in nurturing",
    qualified="qualified",
    unqualified="unqualified",
    converted="converted",
)
say.state(
    Lead,
    "source",
    web="the website",
    referral="a referral",
    event="an event",
    outbound="outbound prospecting",
    partner="a partner",
)
say.state(Activity, "kind", call="call", email="email", meeting="meeting", note="note", task="task")
say.state(User, "role", rep="rep", manager="manager", admin="admin")

# -- what people type ---------------------------------------------------------------------------
DEAL_NAMES = (
    "Platform Expansion",
    "Q3 Pilot",
    "Team Licenses 2026",
    "Security Add-on",
    "Data Migration",
    "Analytics Upgrade",
)
SUBJECTS = (
    "Discovery call",
    "Sent the revised quote",
    "Quarterly business review",
    "Demo of the reporting module",
    "Pricing questions",
    "Intro call with their CFO",
)
BODIES = (
    "They want a trial for the finance team before committing.",
    "Budget approved for Q3; legal review next.",
    "Asked for two customer references in logistics.",
    "Procurement needs our security questionnaire before they sign.",
    "They're comparing us with two other vendors, price is the main issue.",
)
TASKS = (
    "Send the contract draft",
    "Follow up on the proposal",
    "Book a demo",
    "Call about the renewal",
    "Send pricing for annual billing",
)
TITLES = ("VP Operations", "Head of IT", "CFO", "Procurement Lead", "Director of Finance", "COO")
LEAD_NOTES = (
    "no budget this year",
    "student project",
    "spoke with them, wants a demo next week",
    "bought from a competitor",
    "not the decision maker, will intro us to their boss",
)

# -- contacts -----------------------------------------------------------------------------------
say.tool(
    "search_contacts",
    asks=[
        "Find the contacts named {query}.",
        "Do we have anyone called {query} in the CRM?",
        "Look up {query} in our contacts.",
        "Who do we know at {account}?",
        "Which contacts do we have at {account}? I'm prepping for a call with them.",
        "Which contacts are at the {lifecycle_stage} stage?",
        "Show me the {lifecycle_stage} contacts, I want to plan outreach.",
        "Which contacts does {owner} own?",
        "List the contacts {owner} looks after.",
    ],
    tells=[
        "We have {contacts:count(contact)} at {@account}: {contacts:list(name, title)}.",
        "{@owner} owns {contacts:count(contact)}, including {contacts:list(name, account)}.",
        "I found {contacts:count(contact)}: {contacts:list(name, account)}.",
        "We have nobody at {@account} in the CRM.",
        "No contacts match that.",
    ],
    words={"lifecycle_stage": LIFECYCLE},
    values={"query": ("Garcia", "Maria", "Smith", "Chen", "Nguyen", "David")},
)
say.tool(
    "get_contact",
    asks=[
        "How do I reach {contact}?",
        "What are the contact details for {contact}?",
        "Pull up {contact} for me, I need their email and phone.",
        "I'm about to call {contact}; what's their number?",
        "Who is {contact} and how do I get hold of them?",
    ],
    tells=[
        "{name} ({title}, {account.name}) has asked not to be contacted.{do_not_contact:yes}",
        "{name} has asked not to be contacted.{do_not_contact:yes}",
        "You can reach {name} ({title}, {account.name}) at {email} or {phone}.",
        "You can reach {name} ({title}, {account.name}) at {email}.",
        "You can reach {name} ({account.name}) at {email} or {phone}.",
        "You can reach {name} at {email} or {phone}.",
        "{name}'s email is {email}.",
    ],
)
say.tool(
    "create_contact",
    asks=[
        "Add a contact: {first_name} {last_name}, {email}.",
        "Please create a contact for {first_name} {last_name} at {account}, email {email}.",
        "I met {first_name} {last_name} at a conference, add them as a contact: {email}.",
        "New contact: {first_name} {last_name}, {title}, email {email}.",
        "Add {first_name} {last_name} ({email}) to our contacts, phone {phone}.",
        "Create a contact for {first_name} {last_name}, {email}, and give them to {owner}.",
    ],
    tells=[
        "Added {name} ({email}) at {@account} as a contact.",
        "Added {name} ({email}) as a contact, owned by {@owner}.",
        "Added {name} ({email}) as a contact.",
    ],
    values={
        "first_name": ("Priya", "Marcus", "Elena", "Tomas", "Grace", "Omar"),
        "last_name": ("Okafor", "Lindqvist", "Reyes", "Chen", "Novak", "Brennan"),
        "title": TITLES,
        "phone": ("+1-503-555-0142", "+1-312-555-0199", "+1-415-555-0178", "+1-206-555-0123"),
    },
)
say.tool(
    "update_contact",
    asks=[
        "Change the title of {contact} to {title}, they got promoted.",
        "Update the title for {contact} to {title}.",
        "There's a new number for {contact}: {phone}.",
        "Please change the phone number for {contact} to {phone}.",
        "Hand {contact} over to {owner}.",
        "Give {contact} to {owner}, she's taking over that account.",
        "Move {contact} to the {lifecycle_stage} lifecycle stage.",
        "Set the lifecycle stage of {contact} to {lifecycle_stage}, that's where they are now.",
        "Mark {contact} as {do_not_contact}.",
        "We were asked to stop reaching out to {contact}; mark them {do_not_contact}.",
    ],
    tells=[
        "{name}'s title is now {@title}.",
        "{name}'s phone number is now {@phone}.",
        "{name} now belongs to {@owner}.",
        "{name} is at the {@lifecycle_stage} stage now.",
        "{name} is marked do-not-contact now, so no calls or emails to them.{@do_not_contact:yes}",
        "{name} can be contacted again.",
    ],
    words={
        "lifecycle_stage": LIFECYCLE,
        "do_not_contact": {True: "do-not-contact", False: "OK to contact again"},
    },
    values={"title": TITLES, "phone": ("+1-503-555-0142", "+1-312-555-0199", "+1-415-555-0178")},
)
say.tool(
    "merge_contacts",
    asks=[
        "There's a duplicate: {duplicate} is the same as {primary}. Merge them and keep {primary}.",
        "Merge {duplicate} into {primary}, it's the same person.",
        "We have {primary} twice. Fold {duplicate} into {primary}.",
        "Please clean up the duplicate: merge {duplicate} into {primary}.",
        "Combine {duplicate} with {primary}, keeping {primary}.",
    ],
    tells=[
        "Merged the duplicate into {name} ({email}); {activities_moved:count(activity)} and "
        "{deal_roles_moved:count(deal role)} moved over.",
    ],
)

# -- accounts and the team ----------------------------------------------------------------------
say.tool(
    "search_accounts",
    asks=[
        "Find the accounts matching '{query}'.",
        "Do we have an account for {query}?",
        "Which {industry} accounts are in {territory}?",
        "Show me the {tier} accounts in {territory}.",
        "Which accounts does {owner} own?",
        "List {owner}'s accounts, I'm reviewing their book.",
        "Which {industry} accounts do we have?",
    ],
    tells=[
        "{@owner} owns {accounts:count(account)}: {accounts:list(name, city)}.",
        "I found {accounts:count(account)}: {accounts:list(name, city)}.",
        "{@owner} doesn't own any accounts.",
        "No accounts match that.",
    ],
    values={"query": ("Harper", "Labs", "Chicago", "Group", "Systems")},
    words={"territory": TERRITORIES},
)
say.tool(
    "get_account",
    asks=[
        "What's going on with {account}?",
        "Give me a rundown of {account}.",
        "How much open pipeline do we have with {account}?",
        "I have a QBR with {account} tomorrow, where do we stand with them?",
        "Who owns {account} and what deals are open there?",
    ],
    tells=[
        "{name} in {city} is owned by {owner.name}, with {open_deals:count(open deal)} worth "
        "{open_pipeline:money} ({open_deals:list(name)}) and {won_to_date:money} won so far.",
        "{name} in {city} is owned by {owner.name}. Nothing is open there right now; "
        "{won_to_date:money} won so far.",
    ],
)
say.tool(
    "update_account",
    asks=[
        "Reassign {account} to {owner}.",
        "Give {account} to {owner}, she has more room in her book.",
        "Please update the tier of {account}: they're {tier} now.",
        "Move {account} to the {tier} tier.",
        "They signed: change {account} to a {type}.",
        "Mark {account} as a {type}.",
        "Please update {account}: they have {employees} employees now.",
        "Update the head count of {account} to {employees}.",
    ],
    tells=[
        "{name} now belongs to {@owner}.",
        "{name} is in the {@tier} tier now.",
        "{name} is a {@type} now.",
        "{name} now has {@employees} employees on file.",
    ],
)
say.tool(
    "list_users",
    asks=[
        "Who is on {team}?",
        "Who's on my team?",
        "List the people on my team.",
        "Who are the {role} on {team}?",
        "Which {role} do I have on my team?",
        "Who is on {team}, counting {active_only}?",
    ],
    tells=[
        "The {@role} on that team{@team:yes} are {users:list(name)}.",
        "The {@role} on your team are {users:list(name)}.",
        "There are {users:count(member)} on that team{@team:yes}: {users:list(name, title)}.",
        "Your team has {users:count(member)}: {users:list(name, title)}.",
        "Nobody on that team matches.",
    ],
    words={
        "team": TEAMS,
        "role": {"rep": "reps", "manager": "managers", "admin": "admins"},
        "active_only": {True: "active people only", False: "people who left too"},
    },
)
say.tool(
    "list_territories",
    asks=[
        "Which cities does each territory cover?",
        "What are our sales territories?",
        "Remind me how the territories are split.",
    ],
    tells=["We have {territories:count(territory)}: {territories:list(name, cities)}."],
)

# -- deals --------------------------------------------------------------------------------------
say.tool(
    "list_deals",
    asks=[
        "Which deals are in {stage}?",
        "Show me everything sitting in {stage}.",
        "Show me {owner}'s deals, {overdue_only}.",
        "List the open deals, {overdue_only}; I need to chase the late ones.",
        "What deals close before {closing_before}?",
        "What's closing before {closing_before}? I'm putting the forecast together.",
        "What deals do we have with {account}?",
        "Show me {owner}'s {status} deals.",
        "What deals does {owner} have?",
        "Which deals in {pipeline} are {status}?",
    ],
    tells=[
        "{@owner} has {deals:count(overdue deal)}{@overdue_only:yes}: {deals:list(name, close_date:day)}.",
        "There are {deals:count(overdue deal)}{@overdue_only:yes}: {deals:list(name, close_date:day)}.",
        "There are {deals:count(deal)} in {deals.0.stage_id:state}{@stage:yes}: {deals:list(name, amount:money)}.",
        "{@owner} has {deals:count(deal)} marked {@status}: {deals:list(name, amount:money)}.",
        "{@owner} has {deals:count(deal)}: {deals:list(name, stage_id)}.",
        "I count {deals:count(deal)} that are {@status}: {deals:list(name, amount:money)}.",
        "{deals:count(deal)} close before {closing_before:day}: {deals:list(name, amount:money)}.",
        "We have {deals:count(deal)} with {@account}: {deals:list(name, stage_id)}.",
        "There are {deals:count(deal)}: {deals:list(name, amount:money)}.",
        "Nothing is overdue.{@overdue_only:yes}",
        "No deals match that.",
    ],
    words={
        "stage": STAGES,
        "pipeline": PIPELINES,
        "overdue_only": {True: "only the overdue ones", False: "overdue or not"},
    },
)
say.tool(
    "get_deal",
    asks=[
        "Where does {deal} stand?",
        "What's the status of {deal}?",
        "Give me an update on {deal}.",
        "What stage is {deal} in?",
        "Is {deal} still on track? My VP is asking.",
    ],
    tells=[
        '"{name}" was lost on {closed_at:day}: {lost_reason:state}.',
        '"{name}" closed as {stage.name} on {closed_at:day}, for {amount:money}.',
        '"{name}" is in {stage.name}, worth {amount:money} and expected to close {close_date:day}; '
        "{owner.name} owns it.{amount:yes}",
        '"{name}" is in {stage.name} and expected to close {close_date:day}; it has no amount yet. '
        "{owner.name} owns it.",
    ],
)
say.tool(
    "create_deal",
    asks=[
        "Open a deal '{name}' with {account} for {amount}, closing {close_date}.",
        "Create a {amount} deal called '{name}' on {account}, expected to close {close_date}.",
        "Good news from {account}: start a deal '{name}' worth {amount}, close date {close_date}.",
        "Add a deal '{name}' for {account}, {amount}, closing {close_date}, with {primary_contact} as "
        "the main contact.",
        "Open '{name}' for {account}: {amount}, close date {close_date}, straight into {stage}.",
        "Log a new deal '{name}' on {account} for {amount}, closing {close_date}, and give it to {owner}.",
    ],
    tells=[
        'Opened "{name}" with {@account}'
        " for {amount:money}, in {stage_id:state}, expected to close "
        "{close_date:day}; {@owner} owns it.",
        'Opened "{name}" with {@account}'
        " for {amount:money}, in {stage_id:state}, expected to close "
        "{close_date:day}.",
    ],
    words={"stage": STAGES, "pipeline": PIPELINES},
    values={"name": DEAL_NAMES},
)
say.tool(
    "update_deal",
    asks=[
        "Change the amount on {deal} to {amount}.",
        "They added seats: {deal} is now {amount}.",
        "Push the close date of {deal} to {close_date}.",
        "{deal} is slipping, move the close date to {close_date}.",
        "Hand {deal} over to {owner}.",
        "Give {deal} to {owner}, I'm rebalancing the team.",
        "Make {primary_contact} the primary contact on {deal}.",
        "Rename {deal} to '{name}'.",
    ],
    tells=[
        '"{name}" is now worth {@amount:money}.',
        '"{name}" is now expected to close {@close_date:day}.',
        '"{name}" now belongs to {@owner}.',
        '{@primary_contact} is now the primary contact on "{name}".',
        'Renamed the deal to "{name}".',
    ],
    values={"name": DEAL_NAMES},
)
say.tool(
    "add_contact_to_deal",
    asks=[
        "Add {contact} to {deal} as {role}.",
        "Please add {contact} to {deal}; they're {role}.",
        "Put {contact} on {deal} as {role}.",
        "Can you add {contact} to the buying group on {deal}? They're {role}.",
        "Link {contact} to {deal}, they're {role}.",
    ],
    tells=["Added {@contact} to {@deal} as {@role}."],
    words={
        "role": {
            "decision_maker": "the decision maker",
            "champion": "our champion",
            "influencer": "an influencer",
            "user": "an end user",
        }
    },
)
say.tool(
    "move_deal_stage",
    asks=[
        "Move {deal} to {stage}.",
        "Move {deal} to {stage}, we went over it in the pipeline review.",
        "Advance {deal} to {stage}.",
        "We lost {deal}, {lost_reason}. Move it to {stage}.",
        "Mark {deal} as {stage}; reason: {lost_reason}.",
        "Put {deal} in {stage}, please.",
    ],
    tells=[
        '"{name}" is marked {stage_id:state}: {lost_reason:state}.',
        '"{name}" is {stage_id:state} at {amount:money}.{closed_at:yes}',
        '"{name}" is in {stage_id:state} now, expected to close {close_date:day}.',
    ],
    words={"stage": STAGES, "lost_reason": LOST_REASONS},
)
say.tool(
    "get_pipeline_summary",
    asks=[
        "How does {pipeline} look?",
        "Give me the summary of {pipeline}.",
        "What's {owner}'s weighted forecast in {pipeline}?",
        "How does {pipeline} look for {team}?",
        "Summarize {pipeline} for deals closing in {close_month}.",
        "I have a forecast call: what's in {pipeline} for {close_month}?",
    ],
    tells=[
        "For deals closing that month{@close_month:yes}: {open_deals:count(open deal)} in {pipeline.id:state} "
        "worth {open_amount:money}, a weighted forecast of {weighted_forecast:money}, and {won_amount:money} "
        "already won.",
        "{@owner} has {open_deals:count(open deal)} in {pipeline.id:state} worth {open_amount:money}; the "
        "weighted forecast is {weighted_forecast:money}.",
        "The team has {open_deals:count(open deal)} in {pipeline.id:state} worth {open_amount:money}{@team:yes}; "
        "the weighted forecast is {weighted_forecast:money}.",
        "There are {open_deals:count(open deal)} in {pipeline.id:state} worth {open_amount:money}; the "
        "weighted forecast is {weighted_forecast:money}, and {won_amount:money} is already won.",
    ],
    words={"pipeline": PIPELINES, "team": TEAMS},
)

# -- leads --------------------------------------------------------------------------------------
say.tool(
    "list_leads",
    asks=[
        "Which leads are {status}?",
        "Show me the leads that are {status}.",
        "Which leads came from {source}?",
        "Which of {owner}'s leads score at least {min_score}?",
        "Show me {owner}'s leads.",
        "Do we have a lead called {query}?",
        "Find the lead {query}.",
        "Which leads score {min_score} or more? I want to call the hot ones first.",
    ],
    tells=[
        "{@owner} has {leads:count(lead)} scoring {@min_score} or more: {leads:list(name, company_name)}.",
        "{leads:count(lead)} score {@min_score} or more: {leads:list(name, company_name)}.",
        "{@owner} has {leads:count(lead)}: {leads:list(name, company_name)}.",
        "There are {leads:count(lead)}: {leads:list(name, company_name)}.",
        "{@owner} has no leads like that.",
        "No leads match that.",
    ],
    values={"query": ("Garcia", "Kim", "Patel", "Johnson", "Lee")},
)
say.tool(
    "create_lead",
    asks=[
        "New lead from {source}: {first_name} {last_name}, {email}.",
        "Add a lead from {source}: {first_name} {last_name} at {company_name}, {email}.",
        "I got a lead from {source} in {city}: {first_name} {last_name}, {email}.",
        "Please log {first_name} {last_name} ({email}) as a lead; they came from {source}.",
        "Add {first_name} {last_name}, {title}, as a lead from {source}: {email}.",
        "Create a lead from {source} for {first_name} {last_name} ({email}) and give it to {owner}.",
    ],
    tells=[
        "Added {name} from {company_name} as a new lead in {city}, for {@owner} to work.",
        "Added {name} from {company_name} as a new lead in {city}; it scores {score}.",
    ],
    values={
        "first_name": ("Ana", "Li", "Sam", "Noor", "Felix", "Hannah"),
        "last_name": ("Silva", "Wei", "Ortiz", "Haddad", "Brandt", "Moreau"),
        "company_name": ("Brightwater Analytics", "Kestrel Foods", "Northwind Freight", "Bluefin Health"),
        "title": TITLES,
    },
)
say.tool(
    "update_lead",
    asks=[
        "Set {lead} to {status}.",
        "I've talked to {lead} again; set them to {status}.",
        "Mark {lead} {status}, they're not a fit. Reason: {note}.",
        "Mark {lead} as {status}, note: {note}.",
        "Change the score of {lead} to {score}.",
        "Bump the score of {lead} to {score}, they opened every email.",
        "Give {lead} to {owner}.",
        "Hand {lead} to {owner}, she covers that city.",
    ],
    tells=[
        "{name} is {status:state} now; I noted the reason: {@note}.{@status:yes}",
        "{name} is {status:state} now.{@status:yes}",
        "{name}'s score is now {@score}.",
        "{name} now belongs to {@owner}.",
    ],
    words={
        "status": {
            "new": "new",
            "working": "Working",
            "nurturing": "Nurturing",
            "qualified": "Qualified",
            "unqualified": "Unqualified",
        }
    },
    values={"note": LEAD_NOTES},
)
say.tool(
    "convert_lead",
    asks=[
        "Convert {lead}.",
        "Please convert {lead}, they're ready to buy.",
        "Convert {lead} and open a deal '{deal_name}' for {amount}.",
        "Convert {lead}; the deal should close {close_date}.",
        "Time to convert {lead}: start a deal '{deal_name}' for them.",
        "Convert {lead} {create_deal}.",
        "Turn {lead} into a contact and open a {amount} deal in {pipeline}.",
    ],
    tells=[
        'Converted {name}; they\'re now a contact at {account.name}, and the deal "{deal.name}" is open '
        "in {deal.stage_id:state}.",
        "Converted {name}; they're now a contact at {account.name}.",
    ],
    words={
        "create_deal": {True: "with a deal", False: "without a deal"},
        "pipeline": PIPELINES,
    },
    values={"deal_name": DEAL_NAMES},
)

# -- activities and tasks -----------------------------------------------------------------------
say.tool(
    "log_activity",
    asks=[
        "Log {kind} with {contact}: {subject}.",
        "Add {kind} for {contact}: '{subject}'.",
        "Log {kind} on {deal}: '{subject}'. {body}",
        "Record {kind} on {deal} called '{subject}'.",
        "Log {kind} with the lead {lead} about '{subject}'.",
        "Add {kind} to {account}: '{subject}'. {body}",
    ],
    tells=[
        'Logged the {kind} "{subject}" with {@contact}.',
        'Logged the {kind} "{subject}" on {@deal}.',
        'Logged the {kind} "{subject}" with {@lead}.',
        'Logged the {kind} "{subject}" on {@account}.',
        'Logged the {kind} "{subject}".',
    ],
    words={"kind": {"call": "a call", "email": "an email", "meeting": "a meeting", "note": "a note"}},
    values={"subject": SUBJECTS, "body": BODIES},
)
say.tool(
    "create_task",
    asks=[
        "Remind me to '{subject}' on {due_day} for {deal}.",
        "Create a task '{subject}' due {due_day} for {owner}.",
        "Add a follow-up task '{subject}' about {contact}, due {due_day}.",
        "Put '{subject}' on my list for {due_day}.",
        "Set a task for {owner}: '{subject}' on {account}, due {due_day}.",
        "I need to '{subject}' for {lead} by {due_day}; add a task.",
    ],
    tells=[
        'Added the task "{subject}" for {@owner}, due {due_on:day}.',
        'Added "{subject}" to your tasks, due {due_on:day}.',
    ],
    values={"subject": TASKS},
)
say.tool(
    "complete_task",
    asks=[
        "Mark {task} as done.",
        "I finished {task}, tick it off.",
        "{task} is done.",
        "Close out {task}, I sent it this morning.",
        "Please complete {task}.",
    ],
    tells=['Marked "{subject}" as done.'],
)
say.tool(
    "list_tasks",
    asks=[
        "What tasks do I have due before {due_before}?",
        "What's on my plate before {due_before}?",
        "Show me {owner}'s tasks, {overdue_only}.",
        "What's on my task list, {overdue_only}?",
        "What tasks are open on {deal}?",
        "Show me {owner}'s {status} tasks.",
        "What are my tasks?",
    ],
    tells=[
        "{@owner} has {tasks:count(task)}: {tasks:list(subject, due_on:day)}.",
        "{@deal} has {tasks:count(task)}: {tasks:list(subject, due_on:day)}.",
        "You have {tasks:count(task)} due before {due_before:day}: {tasks:list(subject, due_on:day)}.",
        "You have {tasks:count(task)}: {tasks:list(subject, due_on:day)}.",
        "You have nothing due before {due_before:day}.",
        "{@owner} has no tasks like that.",
        "There are no tasks like that on {@deal}.",
        "You have no tasks like that.",
    ],
    words={
        "status": {"open": "open", "done": "completed", "all": "open and completed"},
        "overdue_only": {True: "only the overdue ones", False: "overdue or not"},
    },
)
