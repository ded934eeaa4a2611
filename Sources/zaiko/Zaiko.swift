import ArgumentParser

@main
struct Zaiko: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zaiko",
        abstract: "Zaiko, the household inventory you run at home.",
        discussion: """
            Run `zaiko serve` on a small box at home and open the address it prints from any \
            phone or computer on the same network.
            """,
        version: ZaikoVersion.current,
        subcommands: [
            Serve.self, HouseholdCommand.self, UserCommand.self, DemoCommand.self, BackupCommand.self, RestoreCommand.self,
            ImportCommand.self, TLSCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}
