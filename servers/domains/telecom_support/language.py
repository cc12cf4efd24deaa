"""How a mobile carrier's callers speak, and what its support agent tells them.

A caller talks about their own phone service. They identify themselves by their phone number,
or by their name and date of birth (``find_customer_by_phone``, ``find_customer_by_name``: the
generator's person lookups), and give their date of birth to be verified; never by an account
number (they have none, and no name form makes the customer id sayable). A line
is its phone number ("my line +1-507-935-7466"), a bill its amount, due day or state on that
line ("my $38.50 bill on +1-507-935-7466", "my overdue bill on ..."), a plan its name ("the Plus
15 GB plan"), a phone its model ("my Pixel 8"), a card its label ("my Visa ending 4242").
Troubleshooting is said as a caller says it ("my phone shows no signal", "data is so slow")
and answered as a support agent would: what the phone shows now, what changed, what it costs.
"""

from __future__ import annotations

from servers.domains.telecom_support.model import (
    Bill,
    Customer,
    Device,
    Line,
    PaymentMethod,
    Plan,
    Ticket,
    telecom_support,
)
from servers.kit import Language

say = Language(telecom_support, speaker=("customer",))

# -- naming things ------------------------------------------------------------------------
say.names(Customer, "{name}")
say.names(Line, held="my line {id}")  # the phone number is what a caller holds and says
say.names(
    Bill,
    "my {amount:money} bill on {line_number}",
    "my {status:state} bill on {line_number}",
    "the bill on {line_number} that was due {due_on:day}",
    "the {amount:money} bill due {due_on:day} on {line_number}",
)
say.names(
    PaymentMethod,
    "my {label}",
    "the {label}",
    found_in={"get_customer": ("payment_methods", "id", "customer_id")},
)
say.names(Plan, "the {name} plan", "{name}")
say.names(Ticket, held="ticket {id}")  # the case number the agent gives the caller to keep
say.names(
    Device,
    "my {model}",
    "my other phone, the {model}",
    found_in={"list_devices": ("devices", "id", "customer_id")},
)

say.state(Line, "status", active="active", suspended="suspended")
say.state(
    Line,
    "suspension_reason",
    overdue_bill="because of an unpaid bill",
    lost_or_stolen="because the phone was reported lost or stolen",
    customer_request="at your request",
    travel="while you travel",
)
say.state(Line, "roaming_enabled", **{"True": "on", "False": "off"})
say.state(
    Bill,
    "status",
    draft="current",
    issued="newly issued",
    paid="paid",
    overdue="overdue",
    awaiting_payment="pending",
    disputed="disputed",
)
say.state(PaymentMethod, "status", active="active", expired="expired")
say.state(Plan, "available", **{"True": "on sale", "False": "retired"})
say.state(
    Device,
    "sim_status",
    ready="working",
    pin_required="asking for its PIN",
    puk_locked="locked and asking for its PUK code",
    blocked="blocked for good",
    absent="missing",
)
say.state(Device, "network_mode", **{"5g": "5G", "4g": "4G (LTE)", "3g": "3G", "2g": "2G"})
for flag in ("airplane_mode", "mobile_data", "data_roaming", "wifi_calling", "data_saver"):
    say.state(Device, flag, **{"True": "on", "False": "off"})
say.state(
    Device,
    "country",
    US="in the US",
    MX="in Mexico",
    CA="in Canada",
    GB="in the UK",
    FR="in France",
    JP="in Japan",
    DE="in Germany",
    IT="in Italy",
)

ON_OFF = {"on": "turn on", "off": "turn off"}
NETWORK = {"5g": "5G", "4g": "4G (LTE)", "3g": "3G", "2g": "2G"}
BILL_STATUS = {
    "draft": "not issued yet",
    "issued": "issued and not paid yet",
    "paid": "paid",
    "overdue": "overdue",
    "awaiting_payment": "waiting on a payment",
    "disputed": "disputed",
}
SUSPEND_REASON = {
    "lost_or_stolen": "my phone was lost or stolen",
    "customer_request": "I won't be using it for a while",
    "travel": "I'm going abroad for a few months",
}
TICKET_CATEGORY = {
    "coverage": "bad coverage",
    "device_hardware": "a fault with my phone itself",
    "billing": "my bill",
    "number_port": "moving my number to another carrier",
    "complaint": "a complaint",
    "other": "a problem",
}
HANDOFF_REASON = {
    "billing_dispute": "disputing a charge on my bill",
    "device_hardware": "a hardware fault with my phone",
    "number_port": "moving my number to another carrier",
    "complaint_escalation": "escalating a complaint",
    "no_service": "having no service",
    "no_data": "mobile data not working",
    "roaming": "roaming",
    "payment": "a payment",
    "plan_change": "changing my plan",
    "sim_locked": "my locked SIM",
}

# -- who is calling ------------------------------------------------------------------------------
say.tool(
    "find_customer_by_phone",
    asks=[
        "Hi, I'm calling about my account. My number is {phone}.",
        "Can you pull up my account? The number is {phone}.",
        "My phone number is {phone}, can you find my account?",
        "I need some help with my phone service; my number's {phone}.",
        "Look me up by my number, please: {phone}.",
    ],
    tells=[
        "Thanks, {name}, I have your account: you have {lines:count(line)} with us ({lines:list(id)}).",
        "Thanks, {name}, I have your account.",
    ],
)
say.tool(
    "find_customer_by_name",
    asks=[
        "Hi, this is {name}, born {date_of_birth}. Can you find my account?",
        "My name is {name} and my date of birth is {date_of_birth}.",
        "I don't have my number to hand. I'm {name}, date of birth {date_of_birth}.",
        "Can you look me up? {name}, born on {date_of_birth}.",
        "It's {name} here, my birthday is {date_of_birth}; please pull up my account.",
    ],
    tells=["Thanks, {customers.0.name}, I've found your account."],
)
say.tool(
    "verify_customer",
    asks=[
        "My date of birth is {date_of_birth}.",
        "You can verify me: I was born on {date_of_birth}.",
        "For security, my date of birth is {date_of_birth}.",
        "I was born {date_of_birth}, if you need that to check it's me.",
        "Here's my date of birth for verification: {date_of_birth}.",
    ],
    tells=["Thank you, {name}, you're verified."],
)
say.tool(
    "get_customer",
    asks=[
        "What's on my account?",
        "Can you tell me which lines and payment methods I have?",
        "Is my account in good standing?",
        "Do I owe you anything?",
        "Can you pull up my account, please?",
    ],
    tells=[
        "You have {lines:count(line)} ({lines:list(id)}) and {payment_methods:list(label)} on file. "
        "{past_due_bills:count(bill)} past due, {past_due_bills:sum(outstanding)} in all.{good_standing:no}",
        "You have {lines:count(line)} ({lines:list(id)}) and {payment_methods:list(label)} on file, "
        "and you're in good standing: nothing is past due.{good_standing:yes}",
        "You have {lines:count(line)} ({lines:list(id)}) and no payment method on file; "
        "{past_due_bills:count(bill)} past due, {past_due_bills:sum(outstanding)} in all.{good_standing:no}",
        "You have {lines:count(line)} ({lines:list(id)}) and you're in good standing: nothing is past due.",
    ],
)
say.tool(
    "list_devices",
    asks=[
        "Which phones do I have registered with you?",
        "What devices are on my account?",
        "Which of my phones has which number?",
        "I want to move my number to another phone. Which phones do you have on file for me?",
        "Can you list the phones on my account?",
    ],
    tells=[
        "You have {devices:count(phone)} registered: {devices:list(model, line_number)}.",
        "You have no phones registered with us.",
    ],
)

# -- lines, plans, bills ---------------------------------------------------------------------
say.tool(
    "get_line",
    asks=[
        "What's the status of my line {line}?",
        "How much data do I have left on my line {line}?",
        "Is my line {line} active?",
        "What plan is my line {line} on?",
        "Can you check my line {line}? I'm not sure it's working.",
        "Is roaming switched on for my line {line}? I'm flying out soon.",
    ],
    tells=[
        "Your line {line} is suspended {suspension_reason:state}; it's on the {plan.name} plan.",
        "Your line {line} is {status:state} on the {plan.name} plan, with {data_left_gb:about} GB of data left "
        "until {cycle_end:day}; roaming is on.{roaming_enabled:yes}",
        "Your line {line} is {status:state} on the {plan.name} plan, with {data_left_gb:about} GB of data left "
        "until {cycle_end:day}; roaming is off.",
        "Your line {line} is {status:state} on the {plan.name} plan, with unlimited data; roaming is on."
        "{roaming_enabled:yes}",
        "Your line {line} is {status:state} on the {plan.name} plan, with unlimited data; roaming is off.",
    ],
)
say.tool(
    "list_plans",
    asks=[
        "What plans do you offer?",
        "What plans do you have, and how much are they?",
        "I'm thinking of switching plans. What are my options?",
        "Can you list all your plans, {include_retired}?",
        "Which plans are there, {include_retired}?",
    ],
    words={
        "include_retired": {
            True: "including the ones you don't sell anymore",
            False: "only the ones you still sell",
        }
    },
    tells=["We have {plans:count(plan)}; per month: {plans:list(name, monthly_price:money)}."],
)
say.tool(
    "get_bills",
    asks=[
        "Can you show me the bills for my line {line}?",
        "What have my bills been on my line {line} lately?",
        "Which of my bills on my line {line} are {status}?",
        "Are any bills on my line {line} {status}? I want to be sure I'm up to date.",
        "Show me the last {limit} bills for my line {line}.",
        "My bill seems high. Can you go through the bills on my line {line}?",
    ],
    words={"status": BILL_STATUS},
    tells=[
        "Your line {line} has {bills:count(bill)} {@status}: {bills:list(amount:money, due_on:day)}.",
        "Your line {line} has {bills:count(bill)} {@status}: {bills:list(amount:money)}.",
        "The latest bills on your line {line}: {bills:list(amount:money, status)}.",
        "There are no bills on your line {line} that are {@status}.",
        "There are no bills on your line {line} yet.",
    ],
)
say.tool(
    "send_payment_request",
    confirms=[
        "send a payment request for {@bill} to {@method}; it's paid once you approve it there",
    ],
    asks=[
        "Can you send me a payment request for {bill} to {method}?",
        "I'd like to pay {bill}; send the request to {method}.",
        "Please send a request to pay {bill} to {method}, I'll approve it there.",
        "Send {method} a payment request for {bill}, please.",
        "I want to settle {bill}. Can you send it to {method} for me to approve?",
    ],
    tells=[
        "I've sent a request for {amount:money} to {@method}; once you approve it there, {@bill} is paid."
    ],
)
say.tool(
    "record_payment",
    confirms=[
        "charge {@method} for {@bill}",
    ],
    asks=[
        "I'd like to pay {bill} with {method}.",
        "Please pay {bill} now using {method}.",
        "Take the payment for {bill} from {method}, please.",
        "Can I settle {bill} with {method}? I don't want it to be late.",
        "Charge {method} for {bill}.",
    ],
    tells=[
        "Paid: {amount:money} from {@method} for {@bill}. You still have {past_due_left:count(bill)} past due "
        "on the account, {past_due_left:sum(outstanding)} in all.",
        "Paid: {amount:money} from {@method} for {@bill}. Nothing else is past due.",
    ],
)
say.tool(
    "apply_goodwill_credit",
    confirms=[
        "take {amount:money} off {@bill} as a goodwill credit",
    ],
    asks=[
        "Can I get a {amount} credit on {bill}? {reason}.",
        "I'd like {amount} off {bill}, because {reason}.",
        "Please take {amount} off {bill}; {reason}.",
        "{reason}, so I think a {amount} credit on {bill} is fair.",
        "Could you credit {amount} to {bill}? {reason}.",
    ],
    values={
        "reason": (
            "the network was down for two days last week",
            "I had no signal at home for most of the month",
            "my replacement SIM took a week to arrive",
            "I was put on hold for an hour last time",
            "I was charged for data I couldn't use",
        )
    },
    tells=["I've taken {amount:money} off {@bill}; {bill_outstanding:money} is left to pay on it."],
)

# -- the line itself -----------------------------------------------------------------------------
say.tool(
    "suspend_line",
    confirms=[
        "suspend {@line}; it has no calls, texts or data until you ask us to resume it",
    ],
    asks=[
        "Please suspend my line {line}; {reason}.",
        "Can you put my line {line} on hold? {reason}.",
        "{reason}, so please suspend my line {line}.",
        "I need my line {line} suspended, {reason}.",
        "Suspend my line {line} for now, please: {reason}.",
    ],
    words={"reason": SUSPEND_REASON},
    tells=["Your line {line} is suspended: no calls, texts or data on it until you ask us to resume it."],
)
say.tool(
    "resume_line",
    confirms=[
        "resume service on {@line}",
    ],
    asks=[
        "Please reactivate my line {line}.",
        "Can you turn my line {line} back on?",
        "I found my phone, so please resume my line {line}.",
        "I'm back, please resume service on my line {line}.",
        "Could you lift the suspension on my line {line}?",
    ],
    tells=["Your line {line} is active again; calls, texts and data work as before."],
)
say.tool(
    "change_plan",
    confirms=[
        "move {@line} onto {@plan}; the new monthly price applies from this month's bill",
    ],
    asks=[
        "I'd like to switch my line {line} to {plan}.",
        "Can you move my line {line} onto {plan}?",
        "I keep running out of data. Please put my line {line} on {plan}.",
        "Change the plan on my line {line} to {plan}, please.",
        "I'm paying for more than I use; switch my line {line} to {plan}.",
    ],
    tells=["Done: your line {line} is on {@plan} now, and this month's bill takes the new price."],
)
say.tool(
    "enable_roaming",
    confirms=[
        "turn on roaming for {@line}; use abroad is charged at our roaming rates",
    ],
    asks=[
        "I'm travelling next week; please turn on roaming for my line {line}.",
        "Can you enable international roaming on my line {line}?",
        "I'm abroad and my line {line} has no service. Can you switch roaming on?",
        "Please switch on roaming for my line {line}.",
        "I'll be in Europe for work. Turn on roaming on my line {line}, please.",
    ],
    tells=[
        "Roaming is on for your line {line}. Make sure data roaming is switched on in the phone's settings too."
    ],
)
say.tool(
    "disable_roaming",
    confirms=[
        "turn off roaming for {@line}",
    ],
    asks=[
        "I'm back home; please turn off roaming on my line {line}.",
        "Can you disable roaming for my line {line}? I don't want surprise charges.",
        "Switch roaming off on my line {line}, please.",
        "Please block roaming on my line {line}.",
        "I don't travel anymore, turn off roaming for my line {line}.",
    ],
    tells=["Roaming is off for your line {line}; it won't connect to partner networks abroad."],
)
say.tool(
    "refuel_data",
    confirms=[
        "add {gb:about} GB of data to {@line}, charged on this month's bill",
    ],
    asks=[
        "Can I add {gb} GB of data to my line {line}?",
        "I've run out of data on my line {line}. Please add {gb} GB.",
        "Please top up my line {line} with {gb} GB.",
        "I need {gb} GB more data on my line {line} to get through the month.",
        "Buy {gb} GB of extra data for my line {line}, please.",
    ],
    tells=[
        "Done: {gb:about} GB added to your line {line} for {price:money}, charged on this month's bill. "
        "You now have {data_left_gb:about} GB left.",
    ],
)
say.tool(
    "reset_voicemail_pin",
    confirms=[
        "set the voicemail PIN on {@line} to the new one you gave me",
    ],
    asks=[
        "I forgot my voicemail PIN on my line {line}. Can you set it to {new_pin}?",
        "Please reset the voicemail PIN for my line {line} to {new_pin}.",
        "Change my voicemail PIN on my line {line} to {new_pin}, please.",
        "I'm locked out of my voicemail on my line {line}; make the PIN {new_pin}.",
        "Can the voicemail PIN for my line {line} be {new_pin} from now on?",
    ],
    tells=[
        "Your voicemail PIN on your line {line} is changed; use the new one next time you call voicemail."
    ],
)
say.tool(
    "order_sim",
    confirms=[
        "order a new {@kind} for {@line}",
    ],
    asks=[
        "I need a replacement {kind} for my line {line}.",
        "My SIM stopped working. Can you send a new {kind} for my line {line}?",
        "Please order a new {kind} for my line {line}.",
        "I lost my SIM card; I'd like a new {kind} for my line {line}.",
        "Can I get a new {kind} for my line {line}?",
    ],
    words={"kind": {"physical": "SIM card", "esim": "eSIM"}},
    tells=[
        "A new SIM card for your line {line} is on its way to you in {ship_to}; pop it in when it arrives.",
        "Your new eSIM for your line {line} is downloaded onto your phone and active.",
    ],
)
say.tool(
    "transfer_esim",
    confirms=[
        "move {@line} onto {@device} as an eSIM; your old phone will lose the line",
    ],
    asks=[
        "Please move my line {line} onto {device} as an eSIM.",
        "I got a new phone. Can you transfer my line {line} to {device}?",
        "Can you put my line {line} on {device}? I want to use that one now.",
        "Move the eSIM for my line {line} to {device}, please.",
        "My old phone is broken; switch my line {line} over to {device}.",
    ],
    tells=["Your line {line} now works on {@device} as an eSIM; the old phone no longer has it."],
)
say.tool(
    "open_ticket",
    asks=[
        "Please log a problem with my line {line} about {category}: {summary}.",
        "Can you open a ticket for my line {line}? It's about {category}: {summary}.",
        "I'd like to report {category} on my line {line}. {summary}.",
        "Open a case about {category} for my line {line}, please: {summary}.",
        "Could someone look into {category} on my line {line}? {summary}.",
    ],
    words={"category": TICKET_CATEGORY},
    values={
        "summary": (
            "Calls keep dropping when I'm at home",
            "The screen flickers since I dropped it",
            "I was charged for roaming I never used",
            "I'd like to keep my number when I switch",
            "I waited on hold for an hour yesterday",
            "I'd like to know when my contract ends",
        )
    },
    tells=["I've opened ticket {id} for your line {line}; the team will follow up with you."],
)
say.tool(
    "transfer_to_human",
    asks=[
        "Can I speak to a person about {reason}? {summary}.",
        "I'd like a human agent, it's about {reason}. {summary}.",
        "Please put me through to someone about {reason}: {summary}.",
        "{summary}. I want to talk to a real person about {reason}.",
        "Transfer me to an agent about {reason}, please. {summary}.",
    ],
    words={"reason": HANDOFF_REASON},
    values={
        "summary": (
            "I've already tried everything on the phone",
            "I've called about this twice already",
            "Nothing so far has fixed it",
            "I'd rather sort this out with someone directly",
            "This has been going on for a week",
        )
    },
    tells=["I've handed your call to a colleague who'll take it from here about {@reason}."],
)

# -- the phone in the caller's hand ---------------------------------------------------------
say.tool(
    "device_check_status_bar",
    asks=[
        "My phone with {line} shows no signal. What's going on?",
        "What does the top of the screen show on my phone with {line}?",
        "I can't make calls on my line {line}. Can you check what the phone shows?",
        "Can you check the signal on the phone with {line}?",
        "The bars on my phone with {line} look odd; what does it say?",
    ],
    tells=[
        "Your phone on {line} shows {signal} on {operator} ({network}), and mobile data is working."
        "{mobile_data_icon:yes}",
        "Your phone on {line} shows {signal} on {operator} ({network}), but there's no mobile data icon, "
        "so data isn't getting through.{mobile_data_icon:no}",
        'Your phone on {line} shows "{signal}"; calls still go over Wi-Fi calling.{can_call:yes}',
        'Your phone on {line} shows "{signal}", so it can\'t make calls right now.',
    ],
)
say.tool(
    "device_check_network",
    asks=[
        "Can you check the mobile network settings on my phone with {line}?",
        "What are the network settings on the phone with {line}?",
        "Data doesn't work on my line {line}. Could you look at my phone's settings?",
        "Can you see how my phone with {line} is set up?",
        "Is something switched off on my phone with {line}?",
    ],
    tells=[
        "On your {model}, airplane mode is {airplane_mode:state}, mobile data is {mobile_data:state} and data "
        "roaming is {data_roaming:state}; it's set to {network_mode:state}, the SIM is {sim_status:state}, "
        "the APN is {apn}, and a settings change is waiting for a restart.{restart_pending:yes}",
        "On your {model}, airplane mode is {airplane_mode:state}, mobile data is {mobile_data:state} and data "
        "roaming is {data_roaming:state}; it's set to {network_mode:state}, the SIM is {sim_status:state} "
        "and the APN is {apn}.",
    ],
)
say.tool(
    "device_run_speed_test",
    asks=[
        "Can you run a speed test on my line {line}?",
        "Data is really slow on my line {line}. How fast is it right now?",
        "Is mobile data on my line {line} working? Run a speed test, please.",
        "How fast is my data on my line {line} at the moment?",
        "Pages won't load on my line {line}; can you test the connection?",
    ],
    tells=[
        "The speed test on your line {line} came back {result} over {network}: {download_mbps:about} Mbps down and "
        "{upload_mbps:about} Mbps up.",
        "The speed test on your line {line} couldn't connect at all: mobile data isn't getting through.",
    ],
)
say.tool(
    "device_set_airplane_mode",
    asks=[
        "Can you {mode} airplane mode on my phone with {line}?",
        "Please {mode} airplane mode on the phone with {line}.",
        "I think airplane mode is the problem; {mode} airplane mode on my line {line}.",
        "Help me {mode} airplane mode on the phone with {line}.",
        "{mode} airplane mode for my line {line}, please.",
    ],
    words={"mode": ON_OFF},
    tells=["Airplane mode is {airplane_mode} now; the phone shows {status_bar.signal}."],
)
say.tool(
    "device_set_mobile_data",
    asks=[
        "Can you {mode} mobile data on my phone with {line}?",
        "Please {mode} mobile data on the phone with {line}.",
        "Data isn't working on my line {line}; {mode} mobile data, please.",
        "Help me {mode} cellular data on the phone with {line}.",
        "{mode} mobile data for my line {line}, please.",
    ],
    words={"mode": ON_OFF},
    tells=["Mobile data is {mobile_data} now on your phone on {line}; it shows {status_bar.signal}."],
)
say.tool(
    "device_set_data_roaming",
    asks=[
        "Can you {mode} data roaming on my phone with {line}?",
        "I'm abroad; please {mode} data roaming in the phone's settings for my line {line}.",
        "{mode} the phone's data roaming switch for my line {line}, please.",
        "Help me {mode} data roaming on the phone with {line}.",
        "Please {mode} data roaming on the phone with {line}.",
    ],
    words={"mode": ON_OFF},
    tells=["Data roaming is {data_roaming} now in the settings of your phone on {line}."],
)
say.tool(
    "device_set_wifi_calling",
    asks=[
        "Can you {mode} WiFi calling on my phone with {line}?",
        "I have no signal at home; please {mode} WiFi calling for my line {line}.",
        "Please {mode} WiFi calling on the phone with {line}.",
        "Help me {mode} WiFi calling on the phone with {line}.",
        "{mode} WiFi calling for my line {line}, please.",
    ],
    words={"mode": ON_OFF},
    tells=["Wi-Fi calling is {wifi_calling} now on your phone on {line}."],
)
say.tool(
    "device_set_data_saver",
    asks=[
        "Can you {mode} data saver on my phone with {line}?",
        "Data is crawling on my line {line}; {mode} data saver, please.",
        "Please {mode} the data saver on the phone with {line}.",
        "Help me {mode} data saver on the phone with {line}.",
        "{mode} data saver for my line {line}, please.",
    ],
    words={"mode": ON_OFF},
    tells=["Data saver is {data_saver} now on your phone on {line}."],
)
say.tool(
    "device_set_network_mode",
    asks=[
        "Can you set my phone with {line} to {mode}?",
        "Please switch the network type on the phone with {line} to {mode}.",
        "Change the preferred network on the phone with my line {line} to {mode}, please.",
        "I'd like the phone with {line} on {mode}.",
        "Could you put the phone with {line} on {mode}? Calls keep dropping.",
    ],
    words={"mode": NETWORK},
    tells=["Your phone on {line} is set to {@mode} now and shows {status_bar.signal}."],
)
say.tool(
    "device_reset_apn",
    asks=[
        "Can you reset the APN settings on my phone with {line}?",
        "Data stopped working on my line {line}; please restore the default APN.",
        "Please put the access point settings for my line {line} back to default.",
        "I think I messed up the APN on my line {line}. Can you reset it?",
        "Reset the APN on the phone with {line}, please.",
    ],
    tells=[
        "The APN on your phone on {line} is back to the default; restart the phone for it to take effect."
    ],
)
say.tool(
    "device_reseat_sim",
    asks=[
        "The phone with {line} says No SIM. Should I take the SIM out and put it back?",
        "I'll pop the SIM card out of the phone with {line} and push it back in.",
        "Can you walk me through reseating the SIM in the phone with {line}?",
        "My phone with {line} doesn't see the SIM; let's reseat it.",
        "I've taken the SIM out of the phone with {line}; putting it back now.",
    ],
    tells=[
        "The SIM is back in your phone on {line}; it's {sim_status:state} and the phone shows {status_bar.signal}."
    ],
)
say.tool(
    "device_enter_sim_pin",
    asks=[
        "The phone with {line} is asking for the SIM PIN; it's {sim_pin}.",
        "Can you unlock the SIM on my line {line}? The PIN is {sim_pin}.",
        "My phone with {line} wants a PIN. Try {sim_pin}.",
        "The SIM PIN for my line {line} is {sim_pin}, please enter it.",
        "I think the SIM PIN for my line {line} is {sim_pin}.",
    ],
    tells=[
        "The PIN was accepted and the SIM in your phone on {line} is unlocked; it shows {status_bar.signal}."
        "{accepted:yes}",
        "That PIN wasn't right; the SIM in your phone on {line} is {sim_status:state}.",
    ],
)
say.tool(
    "device_enter_puk",
    asks=[
        "The SIM on my line {line} wants a PUK code; it's {sim_puk}. Set the new PIN to {new_sim_pin}.",
        "Please unblock the SIM for my line {line} with PUK {sim_puk} and make the new PIN {new_sim_pin}.",
        "My SIM on my line {line} is PUK-locked. The PUK is {sim_puk}; I'd like {new_sim_pin} as the new PIN.",
        "Here's the PUK for my line {line}: {sim_puk}. New PIN {new_sim_pin}, please.",
        "Can you unlock the SIM on my line {line}? PUK {sim_puk}, and the new PIN should be {new_sim_pin}.",
    ],
    tells=[
        "The PUK worked: the SIM in your phone on {line} is unlocked with your new PIN and shows "
        "{status_bar.signal}.{accepted:yes}",
        "That PUK wasn't right; the SIM in your phone on {line} is {sim_status:state}.",
    ],
)
say.tool(
    "device_restart",
    asks=[
        "Can you restart my phone with {line}?",
        "I'll turn the phone with {line} off and on again.",
        "Let's restart the phone with {line} and see if that helps.",
        "Please reboot the phone with {line}.",
        "I've changed the settings on the phone with my line {line}; restart it now.",
    ],
    tells=["Your phone on {line} has restarted and shows {status_bar.signal}."],
)

# -- the written policy ----------------------------------------------------------------------
telecom_support.tools  # noqa: B018  (sealing the domain adds get_policy, declared next)
say.tool(
    "get_policy",
    asks=[
        "What are your rules for changing my plan or adding data?",
        "Before I ask for anything: what's your support policy?",
        "Can you walk me through Corvid Mobile's service rules?",
    ],
    tells=[
        "Our policy has {rules:count(rule)}. In short: I verify who you are with your date of birth before "
        "changing anything on your account; a line suspended for an unpaid bill comes back once nothing is "
        "past due; one plan change per billing cycle; goodwill credits up to $60 a year; at most 5 GB of "
        "extra data per line each cycle; roaming only for an account in good standing; I hand you to a "
        "colleague only for what I can't do myself; and I confirm every change and its cost with you first.",
    ],
)
