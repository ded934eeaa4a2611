import APIContract
import Foundation
import Inventory

/// What the household knows of its products through the API: a barcode's product, and what it keeps
/// in stock.
extension HouseholdAPI {
    func getProduct(_ input: Operations.GetProduct.Input) async throws -> Operations.GetProduct.Output {
        let holder = try APICaller.current
        let barcode = input.path.barcode.trimmingCharacters(in: .whitespaces)
        guard (1...100).contains(barcode.count) else { throw APIProblem(.invalid, values: ["reason": "barcode: 1 to 100 characters"]) }
        guard let product = try products.product(barcode: barcode, in: holder.household) else { throw APIProblem(.notFound) }
        let shelfLife = try product.shelfLifeDays ?? products.learnedShelfLife(of: product, in: holder.household)
        return .ok(
            .init(
                body: .json(
                    .init(
                        id: product.id.rawValue, barcode: product.barcode, name: product.name, kind: .init(rawValue: product.kind.rawValue) ?? .other,
                        unit: .init(rawValue: product.unit.rawValue) ?? .piece, folderId: product.folderId?.rawValue, shelfLifeDays: shelfLife,
                        updatedAt: product.updatedAt.date))))
    }

    func listKeepRules(_ input: Operations.ListKeepRules.Input) async throws -> Operations.ListKeepRules.Output {
        let holder = try APICaller.current
        let rules = try keepRules.all(in: holder.household).map { rule in
            Components.Schemas.KeepRule(
                id: rule.id.rawValue, name: rule.name, unit: .init(rawValue: rule.unit.rawValue) ?? .piece, minimum: rule.minimum,
                refillTo: rule.refillTo, pack: rule.pack, inStock: rule.inStock, onList: rule.onList, belowMinimum: rule.isBelowMinimum)
        }
        return .ok(.init(body: .json(.init(rules: rules))))
    }
}
