import Inventory

/// A folder's name as one reader sees it. A starter folder nobody has renamed reads in the
/// reader's language (a Japanese member sees 冷蔵庫, an English one "Fridge", for the same folder);
/// once renamed, or for a folder people made, everyone sees the name it was given.
func displayName(_ name: String, starter: String?, _ t: Catalog) -> String {
    guard let starter, starter.hasPrefix("starter_"), let text = t.texts[starter], !text.isEmpty else { return name }
    return text
}

func displayName(_ folder: Folder, _ t: Catalog) -> String { displayName(folder.name, starter: folder.starter, t) }

func displayName(_ folder: FolderOverview, _ t: Catalog) -> String { displayName(folder.name, starter: folder.starter, t) }

/// The folder of an item on a page that gathers several folders (use soon, calendar).
func folderName(_ entry: DueItem, _ t: Catalog) -> String { displayName(entry.folderName, starter: entry.folderStarter, t) }

/// The folder an item in the trash came from.
func folderName(_ entry: TrashEntry, _ t: Catalog) -> String { displayName(entry.folderName, starter: entry.folderStarter, t) }
