import Backups
import Foundation
import Inventory
import Testing

@testable import Web

/// Keys made at run time from a code (`kind_` + a kind) are checked here, as `TextKey`s are by
/// the build: every code the domain has is a key of the catalogs, and so of every language (the
/// generator refuses a key one language lacks).
@Suite("Every code of the domain has its text")
struct TextFamilyTests {
    /// Each family with the codes the pages look it up by.
    static let families: [(family: TextFamily, codes: [String])] = [
        (.kind, ItemKind.allCases.map(\.rawValue)),
        (.planSlot, MealSlot.allCases.map(\.rawValue)),
        (.status, ItemStatus.allCases.map(\.rawValue)),
        (.unit, ItemUnit.allCases.map(\.rawValue) + IngredientUnit.allCases.filter { !$0.isCookingMeasure }.map(\.rawValue)),
        (.recipeEditorUnit, IngredientUnit.allCases.filter(\.isCookingMeasure).map(\.rawValue)),
        (.recipeQuantity, [IngredientUnit.tbsp, .tsp, .cup, .pinch].map(\.rawValue)),
        (.due, [DueState.expired, .today, .soon].map(\.rawValue)),
        (.field, ItemMerge.Field.allCases.filter { $0 != .item(.name) }.map(\.rawValue) + ["item_name", "household", "name", "login", "password"]),
        (.history, ["created", "changed", "moved", "quantity", "opened", "bought", "deleted", "restored"]),
        (.illustration, Illustrations.all.map(\.slug)),
        (.icon, Folders.icons),
        (.pushKind, PushKind.allCases.map(\.rawValue)),
        (.role, Role.allCases.map(\.rawValue)),
        (.tokenScope, TokenScope.allCases.map(\.rawValue)),
        (.apiProblem, APIProblem.Kind.allCases.map(\.rawValue)),
        (.apiProblemDetail, APIProblem.Kind.allCases.map(\.rawValue)),
        (.apiOperation, APIOperation.all.map(\.id)),
        (.pushError, [PushFailure.timedOut, .refusedAddress, .unknownHost, .connectionFailed, .answerTooLarge, .invalidAddress, .noChannel].map(\.stored)),
        (.quantity, ItemUnit.allCases.map(\.rawValue)),
        (.saved, ["profile", "password", "devices", "feed_removed", "push", "push_removed", "lookup", "home_network"]),
        (.tlsPlatform, TLSPage.stepCounts.flatMap { id, count in [id] + (1...count).map { "\(id)_\($0)" } }),
        (.errorTitle, ["400", "403", "404", "405", "413", "422", "500"]),
        (.errorMessage, ["400", "403", "404", "405", "413", "422", "500"]),
        (.storageTitle, [StorageFailure.full, .readOnly, .failing, .databaseFileChanged].map(\.messageKey)),
        (.storageMessage, [StorageFailure.full, .readOnly, .failing, .databaseFileChanged].map(\.messageKey)),
        (.backupFailure, BackupFailureReason.allCases.map(\.rawValue)),
        (.editorUnfit, FolderKind.allCases.map(\.rawValue)),
    ]

    @Test func everyCodeOfEveryFamilyIsAKey() {
        for (family, codes) in Self.families {
            #expect(!codes.isEmpty)
            for code in codes { #expect(family.key(code) != nil, "no \(family.name(code))") }
        }
    }

    @Test func everyLanguageSaysEveryCodeInItsOwnWords() {
        for catalog in Localizations.embedded.languages {
            for (family, codes) in Self.families {
                for code in codes { #expect(catalog[family, code] != family.name(code), "\(catalog.code): \(family.name(code))") }
            }
        }
    }

    @Test func everyStarterFolderIsNamedInEveryLanguage() {
        for starter in Accounts.starterFolders { #expect(TextKey.named(starter.key) != nil, "\(starter.key)") }
    }

    @Test func aCodeWithoutAKeyShowsTheKeyRatherThanNothing() {
        let en = Localizations.embedded.fallback
        #expect(TextFamily.kind.key("spaceship") == nil)
        #expect(en[.kind, "spaceship"] == "kind_spaceship")
        #expect(en[.kind, "dairy_eggs"] == "Dairy & eggs")
    }
}
