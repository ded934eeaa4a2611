/// Why a value a person typed was refused: the reason the domain's checks found, beside the field
/// it concerns. Inventory names the reason; Web words it in the reader's language (its
/// `FieldProblem.text`), so the domain knows no catalog and a reason without words does not build.
public enum FieldProblem: Sendable, Hashable {
    // Names.
    case nameRequired, nameTooLong
    case itemNameRequired, householdNameRequired, folderNameRequired
    case recipeNameRequired, ingredientNameRequired

    // Amounts.
    case quantityInvalid, quantityTooLarge
    /// A − / + step that is not a finite number within the largest quantity.
    case quantityStepInvalid
    case amountInvalid, amountTooLarge
    case produceQuantityInvalid
    /// A keep rule's minimum that is not a number above 0; a refill or pack amount that is not a number.
    case keepMinimumInvalid, keepAmountInvalid
    /// A keep rule's refill amount under its minimum.
    case keepRefillBelowMinimum
    case recipeServingsInvalid, cookServingsInvalid
    /// A meal's servings that are not a whole number within `MealPlan.servingsRange`.
    case mealServingsInvalid
    /// Weeks to repeat a meal that are not within `MealPlan.repeatWeeks`.
    case mealWeeksInvalid
    /// A product's shelf life that is not a whole number of days within `ShelfLife.plausible`.
    case shelfLifeInvalid

    // Choices from a fixed list.
    case unitInvalid, kindInvalid, statusInvalid, iconInvalid, pictureInvalid, roleInvalid, timeZoneInvalid
    case pushKindInvalid
    /// What a cook's used-up items become: neither "trash" nor "shopping".
    case usedUpInvalid
    /// An import's urgent column holding neither 1 nor 0.
    case urgentInvalid
    case productInvalid, produceFolderInvalid
    case importFolderUnknown, importIdUnknown, importIdRepeated
    /// A folder of the other kind where a stock list or a shopping list must go.
    case folderNotStock, folderNotShopping
    /// The change would leave the household without an owner.
    case lastOwner

    // Texts with a limit.
    case noteTooLong, recipeNoteTooLong, stepsTooLong, tagTooLong, tooManyTags

    // Days and times.
    /// A meal's day that is no date, or further than `MealPlan.reachDays` from today.
    case mealDayInvalid
    /// A meal that is neither breakfast, lunch, dinner nor other.
    case mealSlotInvalid
    /// A meal with neither a recipe nor a note.
    case mealRecipeOrNote
    case mealNoteTooLong
    case dueInvalid, remindInvalid, remindNeedsDue, dueSoonInvalid, produceDueDaysInvalid, digestHourInvalid

    // Barcodes.
    /// Not 6 to 14 digits.
    case barcodeInvalid
    /// A length that carries a check digit, and the check digit is wrong.
    case barcodeCheckDigit

    // Addresses.
    case sourceUrlInvalid, lookupUrlInvalid
    case pushUrlRequired, pushUrlInvalid, pushTopicRequired, pushTopicInvalid, pushTokenInvalid
    /// A test message asked for with no channel set up.
    case pushNoChannel
    /// More test messages than the window allows.
    case pushTestLimited

    // Accounts.
    case loginRequired, loginInvalid, loginTaken
    case passwordTooShort, passwordTooLong, passwordTooCommon, passwordsDiffer
    case currentPasswordWrong, currentPasswordThrottled
    /// The password could not be hashed (memory): nothing was changed, the person may try again.
    case passwordHashFailed
    case setupCodeRequired, setupCodeCharacters, setupCodeLength, setupCodeWrong

    // Personal access tokens.
    case tokenNameRequired, tokenNameTooLong, tokenScopeInvalid
    /// The member holds `Accounts.tokensPerMember` tokens already.
    case tokenLimitReached
}
