import Inventory

/// The site's addresses, each defined once: a route is registered at a pattern
/// (`Route.Item.pattern.edit` is `/items/{id}/edit`) and links to it are made by the same code
/// (`Route.item(id).edit` is `/items/42/edit`). The CA's page and downloads are `TLSPaths`
/// (public: the plain-HTTP listener lets them through).
enum Route {
    /// The folders page.
    static let home = "/"
    /// The batch editor.
    static let newItem = "/items/new"
    /// Where a new folder is made.
    static let folders = "/folders"
    /// The folders' settings: names, order, new folders.
    static let folderSettings = "/folders/edit"
    /// The signed-in member's stream of their household's changes (Server-Sent Events).
    static let events = "/events"

    static func item(_ id: Inventory.Item.ID) -> Item { Item(path: "/items/\(id.rawValue)") }
    static func folder(_ id: Inventory.Folder.ID) -> Folder { Folder(path: "/folders/\(id.rawValue)") }

    /// One item: its page (`path`, where its editor saves) and its actions.
    struct Item: Sendable {
        /// The routes' pattern, the item's id a parameter.
        static let pattern = Item(path: "/items/{id}")

        let path: String
        var edit: String { path + "/edit" }
        var photo: String { path + "/photo" }
        var quantity: String { path + "/quantity" }
        var opened: String { path + "/opened" }
        var urgent: String { path + "/urgent" }
        /// In the basket or back out of it (shopping rows).
        var basket: String { path + "/basket" }
        var delete: String { path + "/delete" }
        var buyAgain: String { path + "/buy-again" }
        var empty: String { path + "/empty" }
        /// What to keep in stock of the item's product: saved, or stopped.
        var keep: String { path + "/keep" }
        var keepStop: String { path + "/keep/stop" }
    }

    /// One folder: its list (`path`, where its settings save) and its actions.
    struct Folder: Sendable {
        /// The routes' pattern, the folder's id a parameter.
        static let pattern = Folder(path: "/folders/{id}")

        let path: String
        var edit: String { path + "/edit" }
        var move: String { path + "/move" }
        var delete: String { path + "/delete" }
        var bulk: String { path + "/bulk" }
        var bought: String { path + "/bought" }
        /// "Add to the list" (shopping lists).
        var add: String { path + "/add" }
    }
}

// MARK: - Recipes

extension Route {
    /// What can we make: the household's recipes (`path`, where a new recipe saves) and the
    /// addresses beside them.
    enum Recipes {
        static let path = "/recipes"
        /// The editor for a new recipe (`?draft=` opens an import's draft).
        static let new = "/recipes/new"
        /// Undo after a recipe went to the trash.
        static let restore = "/recipes/restore"
        static let importer = "/recipes/import"
        /// Restore or delete for good, from the trash page.
        static let trashRestore = "/trash/recipes/restore"
        static let trashPurge = "/trash/recipes/purge"
    }

    static func recipe(_ id: Inventory.Recipe.ID) -> Recipe { Recipe(path: "/recipes/\(id.rawValue)") }
    static func cook(_ id: Inventory.Cook.ID) -> Cook { Cook(path: "/cooks/\(id.rawValue)") }

    /// One recipe: its page (`path`, where its editor saves) and its actions.
    struct Recipe: Sendable {
        /// The routes' pattern, the recipe's id a parameter.
        static let pattern = Recipe(path: "/recipes/{id}")

        let path: String
        var edit: String { path + "/edit" }
        var delete: String { path + "/delete" }
        /// The cook's confirmation page (GET) and the cook itself (POST).
        var cook: String { path + "/cook" }
        /// What the recipe lacks, onto a shopping list.
        var shopping: String { path + "/shopping" }
    }

    /// One cook of a recipe, to undo.
    struct Cook: Sendable {
        static let pattern = Cook(path: "/cooks/{id}")

        let path: String
        var undo: String { path + "/undo" }
    }
}

// MARK: - The meal plan

extension Route {
    /// The meal plan's week (`path`, `?from=` a day of the week to show, `?day=` the add form's day).
    enum Plan {
        static let path = "/plan"
        /// Where a new meal is placed.
        static let meals = "/plan/meals"
        /// What the shown days lack, onto a shopping list.
        static let shopping = "/plan/shopping"
    }

    static func meal(_ id: Inventory.Meal.ID) -> Meal { Meal(path: "/meals/\(id.rawValue)") }

    /// One meal of the plan: moved or copied (`path`), and what else can be done with it.
    struct Meal: Sendable {
        static let pattern = Meal(path: "/meals/{id}")

        let path: String
        var repeatWeekly: String { path + "/repeat" }
        var skip: String { path + "/skip" }
        var planAgain: String { path + "/plan-again" }
        var delete: String { path + "/delete" }
    }
}

// MARK: - Settings and the account

extension Route {
    /// The owner's settings (`path`) and the forms on them.
    enum Settings {
        static let path = "/settings"
        static let household = "/settings/household"
        static let lookup = "/settings/lookup"
        static let homeNetwork = "/settings/home-network"
        static let push = "/settings/push"
        static let pushDelete = "/settings/push/delete"
        static let pushTest = "/settings/push/test"
        static let rebuildReminders = "/settings/reminders/rebuild"
        static let invitations = "/settings/invitations"
        static let usedUp = "/settings/used-up"
        static let keep = "/settings/keep"
        static let export = "/settings/export"
        static let backUpNow = "/settings/backups/now"
        static let latestBackup = "/settings/backups/latest"

        static func invitation(_ id: SingleUseLink.ID) -> Invitation { Invitation(path: "/settings/invitations/\(id)") }
        static func member(_ id: Inventory.Member.ID) -> Member { Member(path: "/settings/members/\(id.rawValue)") }

        /// A pending invitation.
        struct Invitation: Sendable {
            static let pattern = Invitation(path: "/settings/invitations/{id}")

            let path: String
            var cancel: String { path + "/cancel" }
        }

        /// A member of the household, as the owner manages them.
        struct Member: Sendable {
            static let pattern = Member(path: "/settings/members/{id}")

            let path: String
            var role: String { path + "/role" }
            var remove: String { path + "/remove" }
        }
    }

    /// The member's own account (`path`) and its forms.
    enum Account {
        static let path = "/account"
        static let profile = "/account/profile"
        static let password = "/account/password"
        static let calendarFeed = "/account/calendar-feed"
        static let calendarFeedDelete = "/account/calendar-feed/delete"
        static let calendarFeedMeals = "/account/calendar-feed/meals"
        static let revokeOtherSessions = "/account/sessions/revoke-others"
        /// Where a new personal access token is made.
        static let tokens = "/account/tokens"

        static func session(_ id: DeviceSession.ID) -> Session { Session(path: "/account/sessions/\(id)") }
        static func token(_ id: AccessToken.ID) -> Token { Token(path: "/account/tokens/\(id)") }

        /// One personal access token.
        struct Token: Sendable {
            static let pattern = Token(path: "/account/tokens/{id}")

            let path: String
            var revoke: String { path + "/revoke" }
        }

        /// One signed-in device.
        struct Session: Sendable {
            static let pattern = Session(path: "/account/sessions/{id}")

            let path: String
            var revoke: String { path + "/revoke" }
        }
    }

    static let login = "/login"
    static let logout = "/logout"

    /// The API: its versioned root, its contract and the page that presents it.
    enum API {
        /// What every operation of version 1 is under.
        static let v1 = "/api/v1"
        /// The OpenAPI document of version 1, as JSON.
        static let document = "/api/v1/openapi.json"
        /// The page that shows the document to a person.
        static let page = "/api"
    }

    /// What a phone keeps to read offline (see `OfflineController`).
    enum Offline {
        /// The service worker's script: at the root, so its scope is the whole site.
        static let worker = "/sw.js"
        /// The pages the worker keeps without their being opened.
        static let lists = "/offline/lists.json"
    }
    static let setup = "/setup"
    /// An invitation's link and form; `join("{token}")` is the routes' pattern.
    static func join(_ token: String) -> String { "/join/\(token)" }
    /// A password reset link's form; `reset("{token}")` is the routes' pattern.
    static func reset(_ token: String) -> String { "/reset/\(token)" }
}

// MARK: - Due dates, import, trash, products

extension Route {
    /// What to use soon, and its bulk bar.
    static let soon = "/soon"
    static let soonBulk = "/soon/bulk"
    /// The month calendar of due dates.
    static let calendar = "/calendar"
    /// A member's calendar feed (the token is the authentication); `calendarFeed("{token}")` is
    /// the route's pattern.
    static func calendarFeed(_ token: String) -> String { "/calendar/\(token).ics" }

    /// The CSV import: its form and preview (`path`), and the confirmation.
    enum Import {
        static let path = "/import"
        static let confirm = "/import/confirm"
    }

    /// The trash page, and its items' restore and delete-for-good (the recipes' are `Route.Recipes.trashRestore` and `trashPurge`).
    static let trash = "/trash"
    static let trashRestore = "/trash/restore"
    static let trashPurge = "/trash/purge"
    static let products = "/products"
    /// What the household uses and wastes (`?weeks=`, `?months=` choose the spans, clamped).
    static let household = "/household"
    static func product(_ id: Inventory.Product.ID) -> Product { Product(path: "/products/\(id.rawValue)") }

    /// A product the household's scans taught it: its form (`path`) and forgetting it.
    struct Product: Sendable {
        static let pattern = Product(path: "/products/{id}")

        let path: String
        var forget: String { path + "/forget" }
    }

    /// One size of a photo (`PhotoSize`); `photo("{key}", "{size}")` is the route's pattern.
    static func photo(_ key: String, _ size: String) -> String { "/photos/\(key)/\(size)" }
}
