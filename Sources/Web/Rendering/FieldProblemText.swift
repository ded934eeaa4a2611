import Inventory

extension FieldProblem {
    /// The words for this problem beside its field: the one place a domain reason meets the
    /// catalogs, checked by the compiler on both sides (every reason has a key, every key exists).
    var text: TextKey {
        switch self {
        case .nameRequired: .nameRequired
        case .nameTooLong: .nameTooLong
        case .itemNameRequired: .itemNameRequired
        case .householdNameRequired: .householdNameRequired
        case .folderNameRequired: .folderNameRequired
        case .recipeNameRequired: .recipeErrorNameRequired
        case .ingredientNameRequired: .recipeErrorIngredientNameRequired
        case .quantityInvalid: .quantityInvalid
        case .quantityTooLarge: .quantityTooLarge
        case .quantityStepInvalid: .quantityStepInvalid
        case .amountInvalid: .recipeErrorAmountInvalid
        case .amountTooLarge: .recipeErrorAmountTooLarge
        case .produceQuantityInvalid: .recipeErrorProduceQuantityInvalid
        case .keepMinimumInvalid: .keepMinimumInvalid
        case .keepAmountInvalid: .keepAmountInvalid
        case .keepRefillBelowMinimum: .keepRefillBelowMinimum
        case .recipeServingsInvalid: .recipeErrorServingsInvalid
        case .cookServingsInvalid: .cookServingsInvalid
        case .mealServingsInvalid: .planServingsInvalid
        case .mealWeeksInvalid: .planWeeksInvalid
        case .shelfLifeInvalid: .productsShelfLifeInvalid
        case .mealDayInvalid: .planDayInvalid
        case .mealSlotInvalid: .planSlotInvalid
        case .mealRecipeOrNote: .planRecipeOrNote
        case .mealNoteTooLong: .planNoteTooLong
        case .unitInvalid: .unitInvalid
        case .kindInvalid: .kindInvalid
        case .statusInvalid: .statusInvalid
        case .iconInvalid: .iconInvalid
        case .pictureInvalid: .pictureInvalid
        case .roleInvalid: .roleInvalid
        case .timeZoneInvalid: .timeZoneInvalid
        case .pushKindInvalid: .pushKindInvalid
        case .usedUpInvalid: .cookUsedUpInvalid
        case .urgentInvalid: .importUrgentInvalid
        case .productInvalid: .recipeErrorProductInvalid
        case .produceFolderInvalid: .recipeErrorProduceFolderInvalid
        case .importFolderUnknown: .importFolderUnknown
        case .importIdUnknown: .importIdUnknown
        case .importIdRepeated: .importIdRepeated
        case .folderNotStock: .folderNotStock
        case .folderNotShopping: .folderNotShopping
        case .lastOwner: .lastOwner
        case .noteTooLong: .noteTooLong
        case .recipeNoteTooLong: .recipeErrorNoteTooLong
        case .stepsTooLong: .recipeErrorStepsTooLong
        case .tagTooLong: .recipeErrorTagTooLong
        case .tooManyTags: .recipeErrorTooManyTags
        case .dueInvalid: .dueInvalid
        case .remindInvalid: .remindInvalid
        case .remindNeedsDue: .remindNeedsDue
        case .dueSoonInvalid: .dueSoonInvalid
        case .produceDueDaysInvalid: .recipeErrorProduceDueDaysInvalid
        case .digestHourInvalid: .digestHourInvalid
        case .barcodeInvalid: .barcodeInvalid
        case .barcodeCheckDigit: .barcodeCheckDigit
        case .sourceUrlInvalid: .recipeErrorSourceUrlInvalid
        case .lookupUrlInvalid: .lookupUrlInvalid
        case .pushUrlRequired: .pushUrlRequired
        case .pushUrlInvalid: .pushUrlInvalid
        case .pushTopicRequired: .pushTopicRequired
        case .pushTopicInvalid: .pushTopicInvalid
        case .pushTokenInvalid: .pushTokenInvalid
        case .pushNoChannel: .pushNoChannel
        case .pushTestLimited: .pushTestLimited
        case .loginRequired: .loginRequired
        case .loginInvalid: .loginInvalid
        case .loginTaken: .loginTaken
        case .passwordTooShort: .passwordTooShort
        case .passwordTooLong: .passwordTooLong
        case .passwordTooCommon: .passwordTooCommon
        case .passwordsDiffer: .passwordsDiffer
        case .currentPasswordWrong: .currentPasswordWrong
        case .tokenNameRequired: .tokensNameRequired
        case .tokenNameTooLong: .tokensNameTooLong
        case .tokenScopeInvalid: .tokensScopeInvalid
        case .tokenLimitReached: .tokensLimitReached
        case .currentPasswordThrottled: .currentPasswordThrottled
        case .passwordHashFailed: .passwordHashFailed
        case .setupCodeRequired: .setupCodeRequired
        case .setupCodeCharacters: .setupCodeCharacters
        case .setupCodeLength: .setupCodeLength
        case .setupCodeWrong: .setupCodeWrong
        }
    }
}

extension Catalog {
    /// The words for a problem the domain found, in this language (`t[problem: .nameTooLong]`).
    subscript(problem problem: FieldProblem) -> String { self[problem.text] }

    /// The words for each field's problem, by the field's name.
    func messages<Field>(_ problems: [Field: FieldProblem]) -> [Field: String] { problems.mapValues { self[problem: $0] } }

    /// The words for each field's text, by the field's name (a form whose errors are partly the
    /// web layer's own, such as a refused upload).
    func messages<Field>(_ texts: [Field: TextKey]) -> [Field: String] { texts.mapValues { self[$0] } }
}
