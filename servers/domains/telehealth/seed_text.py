"""Words the seed puts in rows: visit reasons by specialty, note and message templates, drugs."""

from __future__ import annotations

REASONS: dict[str, tuple[str, ...]] = {
    "family medicine": (
        "annual physical",
        "sore throat and cough",
        "blood pressure follow-up",
        "sinus infection",
        "medication review",
    ),
    "internal medicine": (
        "diabetes follow-up",
        "cholesterol results",
        "fatigue",
        "blood pressure follow-up",
        "annual physical",
    ),
    "pediatrics": ("well-child visit", "ear infection", "fever and rash", "school physical", "asthma check"),
    "dermatology": ("rash on forearm", "mole check", "acne treatment", "eczema flare", "skin biopsy results"),
    "cardiology": (
        "chest tightness on exertion",
        "palpitations",
        "heart rhythm follow-up",
        "echocardiogram results",
    ),
    "endocrinology": ("thyroid follow-up", "diabetes management", "bone density results", "hormone levels"),
    "psychiatry": (
        "anxiety and sleep",
        "ADHD medication review",
        "depression follow-up",
        "medication management",
    ),
    "gastroenterology": ("acid reflux", "abdominal pain", "colonoscopy consult", "IBS follow-up"),
    "neurology": ("migraines", "numbness in hands", "memory concerns", "seizure follow-up"),
    "orthopedics": ("knee pain", "shoulder injury", "lower back pain", "ankle sprain follow-up"),
    "gynecology": ("prenatal check", "annual exam", "contraception consult", "pelvic pain"),
    "allergy and immunology": ("seasonal allergies", "allergy testing", "food allergy consult", "hives"),
    "pulmonology": ("shortness of breath", "asthma control", "sleep apnea consult", "chronic cough"),
    "rheumatology": ("joint pain and swelling", "lupus follow-up", "gout flare", "arthritis management"),
    "urology": ("kidney stone follow-up", "urinary frequency", "prostate screening", "UTI follow-up"),
}
PLANS = (
    "Continue current treatment; follow up in 3 months.",
    "Labs ordered; results to be discussed by message.",
    "Prescription adjusted; recheck in 6 weeks.",
    "No changes needed; routine follow-up in a year.",
    "Referred for imaging; patient to schedule.",
)
CANCEL_REASONS = (
    "schedule conflict",
    "feeling better",
    "travel",
    "transportation problem",
    "work",
    "illness",
)
# (drug, dose, DEA schedule or None)
DRUGS: tuple[tuple[str, str, str | None], ...] = (
    ("lisinopril", "10 mg daily", None),
    ("atorvastatin", "20 mg daily", None),
    ("metformin", "500 mg twice daily", None),
    ("levothyroxine", "50 mcg daily", None),
    ("amlodipine", "5 mg daily", None),
    ("sertraline", "50 mg daily", None),
    ("omeprazole", "20 mg daily", None),
    ("albuterol inhaler", "2 puffs as needed", None),
    ("losartan", "50 mg daily", None),
    ("escitalopram", "10 mg daily", None),
    ("montelukast", "10 mg nightly", None),
    ("fluticasone nasal spray", "2 sprays daily", None),
)
CONTROLLED: tuple[tuple[str, str, str], ...] = (
    ("amphetamine salts", "20 mg daily", "II"),
    ("methylphenidate", "18 mg daily", "II"),
    ("oxycodone", "5 mg as needed", "II"),
    ("testosterone cypionate", "100 mg weekly", "III"),
    ("buprenorphine", "8 mg daily", "III"),
    ("alprazolam", "0.5 mg as needed", "IV"),
    ("lorazepam", "1 mg as needed", "IV"),
    ("zolpidem", "5 mg nightly", "IV"),
    ("tramadol", "50 mg as needed", "IV"),
    ("pregabalin", "75 mg twice daily", "V"),
)
SUBJECTS = (
    ("Question about my medication", "Is it okay to take this with ibuprofen?"),
    ("Lab results", "Could you explain my latest lab results?"),
    ("Side effects", "I have been feeling dizzy since the new dose."),
    ("Follow-up question", "Should I keep doing the exercises after my symptoms improve?"),
    ("Form request", "I need a school form signed for my child."),
)
