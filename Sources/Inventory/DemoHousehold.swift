import Foundation
import GRDB

/// A household full of realistic items for trying Zaiko, screenshots and benchmarks.
public struct DemoHousehold: Sendable {
    let database: AppDatabase
    let clock: WallClock

    public init(database: AppDatabase, clock: WallClock = .system) {
        self.database = database
        self.clock = clock
    }

    /// Products a household keeps: name (en, ja), kind, unit, usual quantity, days it keeps (nil: no due date).
    static let products: [(en: String, ja: String, kind: String, unit: String, quantity: Double, keeps: Int?)] = [
        ("Milk", "牛乳", "dairy_eggs", "bottle", 1, 7), ("Eggs", "卵", "dairy_eggs", "pack", 1, 14),
        ("Yogurt", "ヨーグルト", "dairy_eggs", "pack", 2, 10), ("Butter", "バター", "dairy_eggs", "box", 1, 60),
        ("Cheese", "チーズ", "dairy_eggs", "pack", 1, 30), ("Tofu", "豆腐", "prepared", "pack", 2, 5),
        ("Natto", "納豆", "prepared", "pack", 3, 7), ("Chicken thighs", "鶏もも肉", "meat", "g", 300, 3),
        ("Pork belly", "豚バラ肉", "meat", "g", 250, 3), ("Ground beef", "牛ひき肉", "meat", "g", 400, 2),
        ("Salmon", "鮭の切り身", "fish", "pack", 2, 2), ("Mackerel", "さば", "fish", "piece", 1, 2),
        ("Cabbage", "キャベツ", "vegetables", "piece", 1, 10), ("Carrots", "にんじん", "vegetables", "bag", 1, 14),
        ("Spinach", "ほうれん草", "vegetables", "bag", 1, 4), ("Green onions", "長ねぎ", "vegetables", "piece", 2, 7),
        ("Tomatoes", "トマト", "vegetables", "piece", 3, 6), ("Apples", "りんご", "fruit", "piece", 4, 20),
        ("Bananas", "バナナ", "fruit", "piece", 5, 5), ("Mandarins", "みかん", "fruit", "bag", 1, 14),
        ("Orange juice", "オレンジジュース", "drinks", "bottle", 1, 30), ("Green tea", "緑茶", "drinks", "bottle", 2, 180),
        ("Beer", "ビール", "drinks", "can", 6, 270), ("Mineral water", "ミネラルウォーター", "drinks", "bottle", 6, 365),
        ("Soy sauce", "醤油", "seasonings", "bottle", 1, 365), ("Miso", "味噌", "seasonings", "pack", 1, 180),
        ("Mayonnaise", "マヨネーズ", "seasonings", "bottle", 1, 120), ("Sesame oil", "ごま油", "seasonings", "bottle", 1, 365),
        ("Rice", "米", "other", "kg", 5, nil), ("Udon noodles", "うどん", "prepared", "pack", 3, 30),
        ("Frozen dumplings", "冷凍餃子", "prepared", "pack", 1, 90), ("Ice cream", "アイスクリーム", "other", "box", 1, nil),
        ("Curry roux", "カレールー", "seasonings", "box", 1, 300), ("Bread", "食パン", "other", "pack", 1, 4),
        ("Instant ramen", "インスタントラーメン", "prepared", "pack", 5, 180), ("Canned tuna", "ツナ缶", "fish", "can", 3, 700),
        ("Detergent", "洗濯洗剤", "other", "bottle", 1, nil), ("Toilet paper", "トイレットペーパー", "other", "pack", 1, nil),
        ("Tissues", "ティッシュ", "other", "box", 5, nil), ("Shampoo", "シャンプー", "other", "bottle", 1, nil),
        ("Toothpaste", "歯みがき粉", "other", "piece", 2, nil), ("Batteries", "乾電池", "other", "pack", 1, nil),
        ("Cold medicine", "風邪薬", "other", "box", 1, 500),
    ]

    /// The demo is a Japanese household: its starter folders as ja.json names them.
    static let folderNames = [
        "starter_fridge": "冷蔵庫", "starter_freezer": "冷凍庫", "starter_pantry": "パントリー", "starter_supermarket": "スーパー",
    ]

    /// The sample illustration each product shows (the rest show their kind's icon).
    static let illustrations: [String: String] = [
        "Milk": "milk", "Eggs": "eggs", "Yogurt": "yogurt", "Butter": "butter", "Cheese": "cheese", "Tofu": "tofu", "Natto": "natto",
        "Chicken thighs": "meat", "Pork belly": "meat", "Ground beef": "meat", "Salmon": "fish", "Mackerel": "fish",
        "Cabbage": "vegetables", "Carrots": "vegetables", "Spinach": "vegetables", "Apples": "fruit", "Bananas": "fruit",
        "Orange juice": "juice", "Green tea": "tea", "Beer": "beer", "Mineral water": "water", "Soy sauce": "soy-sauce", "Miso": "miso",
        "Sesame oil": "oil", "Rice": "rice", "Udon noodles": "noodles", "Frozen dumplings": "frozen", "Ice cream": "ice-cream",
        "Bread": "bread", "Instant ramen": "noodles", "Canned tuna": "canned", "Detergent": "detergent", "Toilet paper": "toilet-paper",
        "Tissues": "tissues", "Shampoo": "shampoo", "Toothpaste": "toothpaste", "Batteries": "batteries", "Cold medicine": "medicine",
    ]

    /// Creates the household "Demo" with an owner, `items` items and `recipes` recipes (see
    /// `DemoHousehold.recipes`); returns (login, password).
    /// With `reminders`, stock items due later get a reminder at 9:00 the day before their due date
    /// (household time), when that is still to come.
    public func create(
        items count: Int, recipes recipeCount: Int = 0, reminders: Bool = false, hasher: any PasswordHashing = Argon2id.standard
    ) throws -> (login: String, password: String) {
        let login = "demo-" + Crypto.token(byteCount: 3).lowercased().filter { $0.isLetter || $0.isNumber }
        let password = Crypto.token(byteCount: 12)
        let hash = try hasher.hash(password)
        let now = clock.now()
        let zone = TimeZone(identifier: "Asia/Tokyo")!
        let today = CalendarDay.today(in: zone, now: now)
        var random = SeededRandom(seed: 20261122)
        try database.writer.write { db in
            let time = Timestamp(now)
            let householdId = try Household.Draft(name: "Demo", timeZone: "Asia/Tokyo", createdAt: time).insertAndFetch(db, as: Household.self).id
            try db.execute(sql: "UPDATE household SET language = 'ja' WHERE id = ?", arguments: [householdId])
            try Accounts.insertStarterFolders(db, householdId: householdId, names: Self.folderNames, at: time)
            try Folder.Draft(householdId: householdId, name: "Drugstore", kind: .shopping, icon: "drugstore", position: 4, createdAt: time).insert(db)
            try db.execute(
                sql: "INSERT INTO member (household_id, name, login, password_hash, role, created_at) VALUES (?, 'Demo', ?, ?, 'owner', ?)",
                arguments: [householdId, login, hash, time])
            let folders = try Folder.filter(Column("household_id") == householdId).order(Column("position")).fetchAll(db)
            let stock = folders.filter { $0.kind == .stock }
            let shopping = folders.filter { $0.kind == .shopping }
            let insert = try db.makeStatement(
                sql: """
                    INSERT INTO item (household_id, folder_id, name, illustration, quantity, unit, kind, note, due, remind_at, status, urgent, created_at, updated_at, search_text,
                        name_key)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for index in 0..<count {
                let product = Self.products[random.next(below: Self.products.count)]
                let japanese = random.next(below: 3) != 0
                let name =
                    index < Self.products.count * 2
                    ? (japanese ? product.ja : product.en) : "\(japanese ? product.ja : product.en) \(index / Self.products.count)"
                let toShopping = random.next(below: 6) == 0
                let folder = toShopping ? shopping[random.next(below: shopping.count)] : stock[random.next(below: stock.count)]
                var due: CalendarDay?
                var status: String?
                var urgent = false
                if toShopping {
                    urgent = random.next(below: 4) == 0
                } else {
                    // Some expired, some due soon, most later.
                    if let keeps = product.keeps { due = today.adding(days: random.next(below: keeps + 6) - 5) }
                    status = ["unopened", "unopened", "opened", "running_low"][random.next(below: 4)]
                }
                var remindAt: Timestamp?
                if reminders, let day = due,
                    let instant = LocalDateTime.instant(day.adding(days: -1).description + "T09:00", in: zone), instant > now
                {
                    remindAt = Timestamp(instant)
                }
                let note = random.next(below: 8) == 0 ? (japanese ? "特売で購入" : "bought on sale") : ""
                try insert.execute(arguments: [
                    householdId, folder.id, name, Self.illustrations[product.en], product.quantity, product.unit, product.kind, note, due, remindAt, status,
                    urgent, time, time,
                    SearchText.fold(name, note), KeepStock.nameKey(name),
                ])
            }
            try Self.insertRecipes(db, householdId: householdId, count: recipeCount, random: &random, at: time)
        }
        return (login, password)
    }
}

/// A small deterministic generator, so two demo households look alike.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(below bound: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(bound))
    }
}
