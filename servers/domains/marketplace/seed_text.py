"""The words of the seeded marketplace: the category tree, items with their usual prices, and the
phrases titles, descriptions, messages and feedback are made of."""

from __future__ import annotations

# top-level category -> {subcategory: [(item, typical price)]}
CATALOG: dict[str, dict[str, list[tuple[str, float]]]] = {
    "Electronics": {
        "Cameras & Photo": [
            ("Canon AE-1 Program 35mm film camera", 180.0),
            ("Nikon F3 SLR body", 260.0),
            ("Fujifilm X100V digital camera", 1300.0),
            ("Sony A7 III mirrorless body", 1250.0),
            ("Olympus OM-1 with 50mm f/1.8 lens", 220.0),
            ("Polaroid SX-70 Land camera", 150.0),
            ("Canon EF 50mm f/1.8 STM lens", 95.0),
            ("Manfrotto 190 aluminium tripod", 110.0),
        ],
        "Cell Phones": [
            ("iPhone 13 128GB unlocked", 420.0),
            ("Google Pixel 7 128GB", 330.0),
            ("Samsung Galaxy S22 256GB", 380.0),
            ("iPhone SE 2nd gen 64GB", 140.0),
            ("Motorola Moto G Power", 110.0),
        ],
        "Computers & Tablets": [
            ("MacBook Air M1 8GB 256GB", 620.0),
            ("iPad Air 4th gen 64GB Wi-Fi", 360.0),
            ("ThinkPad T480 i5 16GB", 290.0),
            ("Dell UltraSharp U2720Q 27in monitor", 340.0),
            ("Raspberry Pi 4 Model B 4GB kit", 75.0),
            ("Logitech MX Keys keyboard", 70.0),
        ],
        "Video Games": [
            ("Nintendo Switch OLED console", 290.0),
            ("PlayStation 5 disc edition", 430.0),
            ("Super Nintendo SNES console with 2 controllers", 160.0),
            ("The Legend of Zelda: Ocarina of Time N64 cartridge", 45.0),
            ("Game Boy Color, teal", 85.0),
            ("Xbox Series S 512GB", 220.0),
        ],
        "Audio": [
            ("Technics SL-1200 MK2 turntable", 650.0),
            ("Sony WH-1000XM4 headphones", 190.0),
            ("Marantz 2230 vintage receiver", 480.0),
            ("Bose SoundLink Flex speaker", 95.0),
            ("Audio-Technica AT-LP60X turntable", 110.0),
        ],
    },
    "Collectibles": {
        "Coins": [
            ("1921 Morgan silver dollar", 55.0),
            ("1964 Kennedy half dollar, 90% silver", 15.0),
            ("American Silver Eagle 1oz 2019", 38.0),
            ("Buffalo nickel lot of 20", 25.0),
        ],
        "Trading Cards": [
            ("Pokemon Base Set Charizard holo card", 320.0),
            ("Magic: The Gathering Revised booster box sleeve", 140.0),
            ("1989 Upper Deck Ken Griffey Jr. rookie card", 90.0),
            ("Pokemon Evolving Skies booster pack", 12.0),
            ("Yu-Gi-Oh! Blue-Eyes White Dragon LOB", 60.0),
        ],
        "Vintage Posters": [
            ("1977 Star Wars one-sheet movie poster", 450.0),
            ("1960s Pan Am travel poster", 210.0),
            ("Grateful Dead 1972 concert poster", 180.0),
        ],
        "Watches": [
            ("Seiko SKX007 automatic diver", 320.0),
            ("Casio G-Shock DW-5600", 45.0),
            ("Timex Marlin hand-wound reissue", 150.0),
            ("Omega Seamaster vintage 1968", 1400.0),
        ],
    },
    "Home & Garden": {
        "Kitchen": [
            ("KitchenAid Artisan stand mixer 5qt", 230.0),
            ("Le Creuset 5.5qt Dutch oven", 220.0),
            ("Vintage Pyrex mixing bowl set, 4 pieces", 65.0),
            ("Vitamix 5200 blender", 260.0),
            ("Lodge 12in cast iron skillet", 30.0),
        ],
        "Furniture": [
            ("Mid-century teak side table", 240.0),
            ("IKEA Poang armchair, birch", 70.0),
            ("Herman Miller Aeron chair size B", 520.0),
            ("Solid oak bookcase, 5 shelves", 160.0),
        ],
        "Tools": [
            ("DeWalt 20V cordless drill kit", 120.0),
            ("Makita circular saw 7-1/4in", 95.0),
            ("Craftsman 230-piece mechanics tool set", 140.0),
            ("Bosch laser level GLL 30", 85.0),
        ],
    },
    "Fashion": {
        "Men's Clothing": [
            ("Patagonia Better Sweater fleece jacket, M", 70.0),
            ("Levi's 501 jeans 32x32", 35.0),
            ("Barbour Bedale waxed jacket, 40", 210.0),
            ("Pendleton wool flannel shirt, L", 55.0),
        ],
        "Women's Shoes": [
            ("Dr. Martens 1460 boots, size 8", 90.0),
            ("Nike Air Max 90, size 7.5", 80.0),
            ("Birkenstock Arizona sandals, size 39", 65.0),
        ],
        "Handbags": [
            ("Coach leather crossbody bag", 120.0),
            ("Longchamp Le Pliage large tote", 95.0),
            ("Fjallraven Kanken backpack", 55.0),
        ],
    },
    "Sports & Outdoors": {
        "Bicycles": [
            ("Trek FX 2 hybrid bike, medium frame", 480.0),
            ("Specialized Rockhopper mountain bike, L", 560.0),
            ("Brompton folding bike M6L", 1350.0),
            ("Shimano 105 groupset R7000", 380.0),
        ],
        "Camping": [
            ("REI Half Dome 2 tent", 160.0),
            ("Coleman 2-burner camp stove", 55.0),
            ("Osprey Atmos 65 backpack", 190.0),
            ("Jetboil Flash cooking system", 85.0),
        ],
        "Fitness": [
            ("Bowflex SelectTech 552 dumbbells", 280.0),
            ("Concept2 Model D rowing machine", 850.0),
            ("Peloton bike shoes, size 42", 60.0),
        ],
    },
    "Toys & Hobbies": {
        "LEGO": [
            ("LEGO Millennium Falcon 75257", 130.0),
            ("LEGO Technic Porsche 911 GT3 RS 42056", 420.0),
            ("LEGO Creator Expert Fire Brigade 10197", 260.0),
            ("LEGO minifigure lot of 30", 45.0),
        ],
        "Model Trains": [
            ("Lionel Polar Express O gauge train set", 280.0),
            ("Bachmann HO scale steam locomotive", 90.0),
            ("Kato N scale Unitrack starter set", 110.0),
        ],
    },
}

DETAILS = (
    "tested and working",
    "excellent condition",
    "boxed",
    "with original box",
    "clean",
    "lightly used",
    "barely used",
    "with accessories",
    "great shape",
    "collector owned",
    "smoke-free home",
    "fast shipping",
)
CONDITION_DETAILS = {
    "new": ("brand new, sealed", "new in box", "never opened"),
    "refurbished": ("seller refurbished", "fully serviced", "refurbished, 90-day warranty"),
    "for_parts": ("for parts or repair", "not working, as is", "parts only"),
}
DESCRIPTIONS = {
    "new": "Brand new and unopened, straight from the box.",
    "used": "Used with normal signs of wear; everything works as it should.",
    "refurbished": "Cleaned, checked and repaired where needed; works like new.",
    "for_parts": "Sold as is for parts or repair; it does not work properly.",
}
SHIPPING_NOTES = (
    "Ships within one business day.",
    "Packed carefully with bubble wrap.",
    "Local pickup is possible too.",
    "Combined shipping on multiple items.",
    "Ships in the original packaging.",
)
OFFER_MESSAGES = (
    "Would you take this? I can pay right away.",
    "Is this still available? Happy to pay today.",
    "Any chance you would accept this offer?",
    "I'd buy two if the price works.",
    None,
    None,
)
COUNTER_MESSAGES = ("Meet me in the middle?", "Lowest I can go.", None)
FEEDBACK = {
    "positive": (
        "Great seller, item exactly as described.",
        "Fast shipping and well packed. Thanks!",
        "Smooth transaction, would buy again.",
        "Quick payment, great buyer.",
        "Excellent communication, A+++",
    ),
    "neutral": (
        "Item OK, shipping was slow.",
        "As described, but the box was damaged.",
        "Took a while to respond.",
    ),
    "negative": (
        "Item not as described.",
        "Never received a reply to my messages.",
        "Arrived broken and poorly packed.",
    ),
}
