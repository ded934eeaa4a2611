import ArgumentParser
import Foundation
import Inventory

struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Create a demo household full of items and print its owner's login and password.")

    @Option(help: "How many items to create.") var items = 200
    @Option(help: "How many recipes to create (the first 20 are household dishes and juices).") var recipes = 20
    @Flag(help: "Give stock items due later a reminder at 9:00 the day before their due date.") var reminders = false
    @OptionGroup var options: DataOptions

    func run() throws {
        guard (0...1_000_000).contains(items) else { throw Failure(message: "--items takes a number from 0 to 1000000.") }
        guard (0...10_000).contains(recipes) else { throw Failure(message: "--recipes takes a number from 0 to 10000.") }
        let clock = try TestClock.wall()
        let (login, password) = try options.withDatabase(createIfMissing: true) {
            try DemoHousehold(database: $0, clock: clock).create(items: items, recipes: recipes, reminders: reminders)
        }
        print("Demo household created with \(items) items, \(recipes) recipes\(reminders ? " and reminders" : "").")
        print("Login: \(login)")
        print("Password: \(password)")
    }
}
