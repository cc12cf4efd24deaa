"""What restaurants of each cuisine serve: sections, dishes, base prices, dietary flags, options.

Flags: ``v`` vegetarian, ``vg`` vegan (and vegetarian), ``gf`` gluten free, ``s`` spicy. Each
restaurant carries most of its cuisine's dishes at prices scaled by its price level."""

from __future__ import annotations

Dish = tuple[str, float, str]  # name, base price, flags
Options = tuple[tuple[str, str, tuple[tuple[str, float], ...]], ...]  # (group, one/many, choices)

SIZES: Options = (("size", "one", (("Regular", 0.0), ("Large", 2.5))),)
DRINK_SIZES: Options = (("size", "one", (("Small", 0.0), ("Medium", 0.75), ("Large", 1.5))),)
MILK: Options = (("milk", "one", (("Whole milk", 0.0), ("Oat milk", 0.7), ("Almond milk", 0.7))),)
SPICE: Options = (("spice level", "one", (("Mild", 0.0), ("Medium", 0.0), ("Extra spicy", 0.0))),)
EXTRAS = {
    "cheese": (("add-ons", "many", (("Extra cheese", 1.5), ("Bacon", 2.0), ("Avocado", 1.75))),),
    "pizza": (
        ("size", "one", (("12-inch", 0.0), ("16-inch", 5.0))),
        ("add-ons", "many", (("Extra cheese", 2.0), ("Mushrooms", 1.5), ("Pepperoni", 2.0))),
    ),
    "bowl": (("add-ons", "many", (("Extra chicken", 3.0), ("Tofu", 2.0), ("Fried egg", 1.5))),),
    "eggs": (("add-ons", "many", (("Bacon", 2.5), ("Avocado", 1.75), ("Extra egg", 1.25))),),
}

MENUS: dict[str, dict[str, tuple[tuple[Dish, ...], Options]]] = {
    "american": {
        "Burgers": (
            (
                ("Classic Cheeseburger", 13.5, ""),
                ("Bacon BBQ Burger", 15.0, ""),
                ("Mushroom Swiss Burger", 14.5, ""),
                ("Black Bean Burger", 13.0, "v"),
            ),
            EXTRAS["cheese"],
        ),
        "Mains": (
            (
                ("Buttermilk Fried Chicken", 17.0, ""),
                ("Grilled Chicken Sandwich", 13.5, ""),
                ("Mac and Cheese", 11.0, "v"),
                ("Cobb Salad", 13.0, "gf"),
                ("Buffalo Wings", 12.5, "s gf"),
            ),
            (),
        ),
        "Sides": (
            (("French Fries", 4.5, "vg gf"), ("Onion Rings", 5.5, "v"), ("Coleslaw", 4.0, "v gf")),
            SIZES,
        ),
        "Drinks": ((("Lemonade", 3.5, "vg gf"), ("Iced Tea", 3.0, "vg gf")), DRINK_SIZES),
        "Desserts": ((("Chocolate Milkshake", 6.5, "v gf"), ("Apple Pie", 6.0, "v")), ()),
    },
    "italian": {
        "Pizza": (
            (
                ("Margherita Pizza", 15.0, "v"),
                ("Pepperoni Pizza", 17.0, ""),
                ("Quattro Formaggi Pizza", 18.0, "v"),
                ("Diavola Pizza", 18.0, "s"),
            ),
            EXTRAS["pizza"],
        ),
        "Pasta": (
            (
                ("Spaghetti Carbonara", 17.5, ""),
                ("Penne Arrabbiata", 15.0, "vg s"),
                ("Lasagna Bolognese", 18.5, ""),
                ("Fettuccine Alfredo", 16.5, "v"),
                ("Gnocchi al Pesto", 16.0, "v"),
            ),
            (),
        ),
        "Starters": (
            (("Garlic Bread", 6.5, "v"), ("Caprese Salad", 11.0, "v gf"), ("Arancini", 9.5, "v")),
            (),
        ),
        "Desserts": ((("Tiramisu", 8.0, "v"), ("Panna Cotta", 7.5, "v gf")), ()),
        "Drinks": ((("San Pellegrino", 3.5, "vg gf"), ("Italian Soda", 4.0, "vg gf")), ()),
    },
    "mexican": {
        "Tacos": (
            (
                ("Carne Asada Tacos", 13.0, "gf"),
                ("Al Pastor Tacos", 12.5, "gf s"),
                ("Baja Fish Tacos", 14.0, ""),
                ("Mushroom Tacos", 11.5, "vg gf"),
            ),
            SPICE,
        ),
        "Burritos & Bowls": (
            (
                ("Chicken Burrito", 13.5, ""),
                ("Carnitas Burrito", 14.0, ""),
                ("Veggie Burrito Bowl", 12.5, "vg gf"),
                ("Steak Burrito Bowl", 15.0, "gf"),
            ),
            EXTRAS["bowl"],
        ),
        "Sides": (
            (("Chips and Guacamole", 7.5, "vg gf"), ("Elote", 5.5, "v gf"), ("Black Beans", 4.0, "vg gf")),
            (),
        ),
        "Quesadillas": ((("Cheese Quesadilla", 10.0, "v"), ("Chicken Quesadilla", 12.5, "")), ()),
        "Drinks": ((("Horchata", 4.0, "v gf"), ("Jarritos", 3.5, "vg gf")), ()),
    },
    "chinese": {
        "Noodles": (
            (
                ("Dan Dan Noodles", 13.5, "s"),
                ("Beef Chow Fun", 15.5, ""),
                ("Vegetable Lo Mein", 12.0, "vg"),
                ("Shrimp Chow Mein", 15.0, ""),
            ),
            SPICE,
        ),
        "Dumplings": (
            (
                ("Pork Soup Dumplings", 11.0, ""),
                ("Chicken Potstickers", 10.0, ""),
                ("Vegetable Dumplings", 9.5, "vg"),
            ),
            (),
        ),
        "Mains": (
            (
                ("Kung Pao Chicken", 15.0, "s"),
                ("Mapo Tofu", 13.5, "vg s"),
                ("Orange Chicken", 14.5, ""),
                ("Beef and Broccoli", 16.0, ""),
            ),
            (),
        ),
        "Rice": ((("Egg Fried Rice", 9.0, "v"), ("Steamed Rice", 3.0, "vg gf")), ()),
        "Drinks": ((("Jasmine Tea", 3.0, "vg gf"), ("Soy Milk", 3.5, "vg gf")), ()),
    },
    "japanese": {
        "Sushi": (
            (
                ("Salmon Nigiri", 9.0, "gf"),
                ("Spicy Tuna Roll", 10.5, "s"),
                ("California Roll", 8.5, ""),
                ("Avocado Roll", 7.5, "vg"),
                ("Dragon Roll", 15.0, ""),
            ),
            (),
        ),
        "Ramen": (
            (
                ("Tonkotsu Ramen", 16.0, ""),
                ("Miso Ramen", 15.0, ""),
                ("Spicy Tantanmen", 16.5, "s"),
                ("Vegetable Shoyu Ramen", 14.5, "vg"),
            ),
            (("add-ons", "many", (("Soft egg", 1.5), ("Extra chashu", 3.5), ("Corn", 1.0))),),
        ),
        "Small Plates": (
            (
                ("Edamame", 5.0, "vg gf"),
                ("Chicken Karaage", 8.5, ""),
                ("Gyoza", 7.5, ""),
                ("Miso Soup", 3.5, "v"),
            ),
            (),
        ),
        "Drinks": ((("Green Tea", 3.0, "vg gf"), ("Ramune", 4.0, "vg gf")), ()),
    },
    "indian": {
        "Curries": (
            (
                ("Chicken Tikka Masala", 17.0, "gf"),
                ("Butter Chicken", 17.5, "gf"),
                ("Lamb Rogan Josh", 19.0, "gf s"),
                ("Palak Paneer", 15.5, "v gf"),
                ("Chana Masala", 14.0, "vg gf"),
                ("Vegetable Korma", 14.5, "v gf"),
            ),
            SPICE,
        ),
        "Tandoor": ((("Tandoori Chicken", 16.5, "gf s"), ("Paneer Tikka", 14.0, "v gf")), ()),
        "Breads": ((("Garlic Naan", 4.0, "v"), ("Plain Naan", 3.5, "v"), ("Roti", 3.0, "vg")), ()),
        "Rice": ((("Chicken Biryani", 17.0, "gf s"), ("Basmati Rice", 3.5, "vg gf")), ()),
        "Starters": ((("Vegetable Samosas", 7.0, "vg"), ("Onion Bhaji", 6.5, "vg gf")), ()),
        "Drinks": ((("Mango Lassi", 5.0, "v gf"), ("Masala Chai", 3.5, "v gf")), ()),
    },
    "thai": {
        "Noodles": (
            (
                ("Pad Thai", 15.0, "gf"),
                ("Pad See Ew", 15.0, ""),
                ("Drunken Noodles", 15.5, "s"),
                ("Khao Soi", 16.5, "s"),
            ),
            SPICE + EXTRAS["bowl"],
        ),
        "Curries": (
            (
                ("Green Curry", 15.5, "gf s"),
                ("Red Curry", 15.5, "gf s"),
                ("Massaman Curry", 16.0, "gf"),
                ("Panang Curry", 16.0, "gf s"),
            ),
            SPICE,
        ),
        "Starters": (
            (
                ("Fresh Spring Rolls", 7.5, "vg gf"),
                ("Chicken Satay", 9.0, "gf"),
                ("Tom Yum Soup", 8.0, "gf s"),
            ),
            (),
        ),
        "Sides": ((("Jasmine Rice", 3.0, "vg gf"), ("Sticky Rice", 3.5, "vg gf")), ()),
        "Drinks": ((("Thai Iced Tea", 4.5, "v gf"), ("Coconut Water", 4.0, "vg gf")), ()),
    },
    "mediterranean": {
        "Plates": (
            (
                ("Chicken Shawarma Plate", 16.0, "gf"),
                ("Lamb Kofta Plate", 18.0, "gf"),
                ("Falafel Plate", 14.0, "vg"),
                ("Grilled Halloumi Plate", 15.0, "v gf"),
            ),
            (("add-ons", "many", (("Extra hummus", 2.0), ("Feta", 1.5), ("Pita", 1.0))),),
        ),
        "Wraps": (
            (("Chicken Shawarma Wrap", 12.5, ""), ("Falafel Wrap", 11.0, "vg"), ("Gyro Wrap", 12.5, "")),
            (),
        ),
        "Mezze": (
            (
                ("Hummus and Pita", 8.0, "vg"),
                ("Baba Ganoush", 8.5, "vg"),
                ("Tabbouleh", 7.5, "vg"),
                ("Stuffed Grape Leaves", 7.0, "vg gf"),
            ),
            (),
        ),
        "Desserts": ((("Baklava", 5.5, "v"),), ()),
        "Drinks": ((("Mint Lemonade", 4.5, "vg gf"), ("Ayran", 3.5, "v gf")), ()),
    },
    "breakfast": {
        "Pancakes & Waffles": (
            (
                ("Buttermilk Pancakes", 11.5, "v"),
                ("Blueberry Pancakes", 12.5, "v"),
                ("Belgian Waffle", 11.0, "v"),
                ("French Toast", 12.0, "v"),
            ),
            (("add-ons", "many", (("Whipped cream", 1.0), ("Fresh berries", 2.5), ("Bacon", 2.5))),),
        ),
        "Eggs": (
            (
                ("Two Eggs Any Style", 10.5, "v gf"),
                ("Denver Omelette", 13.5, "gf"),
                ("Eggs Benedict", 14.5, ""),
                ("Veggie Scramble", 12.0, "v gf"),
                ("Breakfast Burrito", 12.5, ""),
            ),
            EXTRAS["eggs"],
        ),
        "Bakery": (
            (("Butter Croissant", 4.0, "v"), ("Cinnamon Roll", 4.5, "v"), ("Blueberry Muffin", 3.75, "v")),
            (),
        ),
        "Sides": (
            (("Hash Browns", 4.5, "vg gf"), ("Fruit Cup", 5.0, "vg gf"), ("Bacon Side", 5.0, "gf")),
            (),
        ),
        "Drinks": ((("Fresh Orange Juice", 5.0, "vg gf"), ("Drip Coffee", 3.0, "vg gf")), DRINK_SIZES),
    },
    "cafe": {
        "Coffee": (
            (
                ("Latte", 5.0, "v gf"),
                ("Cappuccino", 4.75, "v gf"),
                ("Americano", 3.75, "vg gf"),
                ("Flat White", 5.0, "v gf"),
                ("Cold Brew", 4.5, "vg gf"),
                ("Mocha", 5.5, "v gf"),
            ),
            DRINK_SIZES + MILK,
        ),
        "Tea": (
            (("Chai Latte", 5.0, "v gf"), ("Matcha Latte", 5.5, "v gf"), ("Earl Grey", 3.5, "vg gf")),
            MILK,
        ),
        "Pastries": (
            (
                ("Butter Croissant", 4.0, "v"),
                ("Almond Croissant", 4.75, "v"),
                ("Banana Bread", 4.0, "v"),
                ("Blueberry Scone", 3.75, "v"),
            ),
            (),
        ),
        "Breakfast": (
            (
                ("Avocado Toast", 9.5, "vg"),
                ("Egg and Cheese Sandwich", 8.0, "v"),
                ("Yogurt Parfait", 6.5, "v gf"),
            ),
            (),
        ),
    },
}

DESCRIPTIONS = {
    "v": "vegetarian",
    "vg": "vegan",
    "gf": "gluten free",
    "s": "spicy",
}
PRICE_SCALE = {1: 0.85, 2: 1.0, 3: 1.2, 4: 1.45}
