import Foundation

/// Splits one ingredient line ("200g 鶏もも肉", "醤油 大さじ2", "1 onion, chopped") into name,
/// amount, unit and note. English and Japanese forms; full-width characters are folded first (NFKC).
///
/// Decisions, so the result is predictable:
/// - The quantity is read at the start ("2 cups flour", "大さじ2 醤油") or at the end ("鶏もも肉 200g",
///   "醤油大さじ2"); what is left is the name. A number with no unit word is a count (piece).
/// - 個, 本, 枚, 玉, 丁, かけ, 片, clove, slice… are all `piece`: 本 is a count whether it is a carrot
///   or a bottle of milk; only ボトル, 瓶 and "bottle" say `bottle`.
/// - 少々, 少量, ひとつまみ, "a pinch" are `pinch`; 適量, 適宜, お好みで, "to taste" are `to_taste`.
/// - A range ("2-3 cloves", "2〜3個") keeps its lower bound as the amount (what the recipe needs at
///   least) and the range in the note. So do 大さじ1強/弱, and ounces and pounds (converted to grams).
/// - A measure the recipe units cannot express (米 2合) stays in the note, the amount and unit empty.
/// - Words in parentheses and after the first comma are the note ("1 onion, chopped").
/// - A line with no quantity, or nothing left for a name, stays whole as the name.
public enum IngredientLine {
    /// The units recipes use (the recipe foundation's codes).
    public static let unitCodes = ["piece", "pack", "bottle", "can", "bag", "box", "g", "kg", "ml", "L", "tbsp", "tsp", "cup", "pinch", "to_taste"]

    /// The longest line read: far longer than an ingredient's name and note together, short enough
    /// that looking for the quantity at each place of it stays cheap. The rest of a longer line is dropped.
    public static let maxLineLength = 500

    public static func parse(_ line: String) -> ParsedIngredient {
        let text = normalize(String(line.prefix(maxLineLength)))
        guard !text.isEmpty else { return ParsedIngredient(name: "") }
        var (main, notes) = splitNotes(text)
        let chars = Array(main)
        var found = leading(chars) ?? trailing(chars) ?? tasteSuffix(main)
        // "Butter (50g)", "salt, to taste": the quantity was in the note.
        if found == nil, let index = notes.firstIndex(where: { whole(Array($0)) != nil }), let quantity = whole(Array(notes[index])) {
            notes.remove(at: index)
            found = (main, quantity)
        }
        guard let (name, quantity) = found else {
            main = clean(main)
            return ParsedIngredient(name: main.isEmpty ? text : main, note: notes.joined(separator: ", "))
        }
        if let kept = quantity.note { notes.insert(kept, at: 0) }
        return ParsedIngredient(name: clean(name), amount: quantity.amount, unit: quantity.unit, note: notes.joined(separator: ", "))
    }

    // MARK: - Folding

    private static let fractions: [Character: String] = [
        "½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5", "⅗": "3/5", "⅘": "4/5", "⅙": "1/6",
        "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8",
    ]
    private static let bullets: Set<Character> = ["・", "•", "●", "○", "◎", "◯", "★", "☆", "◆", "◇", "■", "□", "▪", "*", "※", "♪", "▶"]

    /// NFKC (full-width digits and letters, ㎖), fractions as "1/2", one kind of dash, single spaces, no bullet.
    static func normalize(_ line: String) -> String {
        var spelled = ""
        for character in line {
            if let fraction = fractions[character] {
                if let last = spelled.last, last.isNumber { spelled += " " }
                spelled += fraction
            } else {
                spelled.append(character)
            }
        }
        var text = spelled.precomposedStringWithCompatibilityMapping
        for dash in ["\u{2044}": "/", "〜": "-", "~": "-", "–": "-", "—": "-", "−": "-", "‐": "-"] {
            text = text.replacingOccurrences(of: dash.key, with: dash.value)
        }
        // 1,000 g is a thousand; 1,5 kg is one and a half.
        text = text.replacingOccurrences(of: #"(\d),(\d{3})(?!\d)"#, with: "$1$2", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(\d),(\d)"#, with: "$1.$2", options: .regularExpression)
        text = collapse(text)
        while let first = text.first, bullets.contains(first) || (first == "-" && text.dropFirst().first == " ") {
            text = String(text.dropFirst()).trimmingCharacters(in: .whitespaces)
        }
        return text
    }

    static func collapse(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    /// Takes out words in parentheses and everything after the first comma, as notes.
    static func splitNotes(_ text: String) -> (main: String, notes: [String]) {
        var main = ""
        var notes: [String] = []
        var inside: String?
        var depth = 0
        for character in text {
            if character == "(" || character == "[" {
                depth += 1
                if depth == 1 {
                    inside = ""
                    main += " "
                    continue
                }
            }
            if character == ")" || character == "]", depth > 0 {
                depth -= 1
                if depth == 0 {
                    if let note = inside.map(collapse), !note.isEmpty { notes.append(note) }
                    inside = nil
                    continue
                }
            }
            if depth > 0 { inside?.append(character) } else { main.append(character) }
        }
        if let note = inside.map(collapse), !note.isEmpty { notes.append(note) }
        main = collapse(main)
        if let comma = main.firstIndex(of: ",") {
            let rest = collapse(String(main[main.index(after: comma)...]))
            main = collapse(String(main[..<comma]))
            if !rest.isEmpty { notes.insert(rest, at: 0) }
        }
        return (main, notes)
    }

    /// Trims spaces and the separators lines put between a name and its quantity.
    static func clean(_ name: String) -> String {
        var name = name.trimmingCharacters(in: CharacterSet(charactersIn: " :…‥・-.,、").union(.whitespaces))
        if name.lowercased().hasPrefix("of ") { name = String(name.dropFirst(3)) }
        return name
    }

    // MARK: - Where the quantity is

    /// "2 cups flour", "200g 鶏もも肉", "大さじ2 醤油", "a pinch of salt".
    static func leading(_ chars: [Character]) -> (String, Quantity)? {
        guard let (quantity, end) = quantity(chars, from: 0) ?? wordQuantity(chars) else { return nil }
        var i = skipSpaces(chars, end)
        if matches(chars, i, "of ", ignoringCase: true) { i += 3 }
        if matches(chars, i, "の", ignoringCase: false) { i += 1 }
        let name = clean(String(chars[i...]))
        guard !name.isEmpty else { return nil }
        var counted = quantity
        if counted.unit == nil, counted.amount != nil, counted.note == nil { counted.unit = "piece" }
        return (name, counted)
    }

    /// What `quantity` can start at: a digit, 半, the first character of a word written before its
    /// number or standing for an amount, and the space, 約 and 各 it passes over. Other places are not tried.
    static let quantityStarts: Set<Character> = Set("0123456789半約各 ").union(UnitWords.beforeNumber.compactMap(\.word.first))
        .union(UnitWords.presence.compactMap(\.word.first))

    /// "鶏もも肉 200g", "醤油大さじ2", "塩 少々": the first place from which the rest is all quantity.
    static func trailing(_ chars: [Character]) -> (String, Quantity)? {
        guard chars.count > 1 else { return nil }
        // Whether the quantity from `start - 1` was read (or is the one read from further back).
        var readFromBefore = false
        for start in 1..<chars.count {
            let before = chars[start - 1]
            // After a space, 約 or 各 the quantity is the one from just before it, which `quantity`
            // skips: not read again (a line of 300 "約" would otherwise be read 300 times over).
            if readFromBefore, before == " " || before == "約" || before == "各" { continue }
            readFromBefore = false
            // Never inside a number ("1.5", "1/2"), nor after a letter of a Latin word ("V8").
            if before.isASCII && (before.isNumber || before.isLetter) { continue }
            if before == "." || before == "/", start >= 2, chars[start - 2].isASCII, chars[start - 2].isNumber { continue }
            readFromBefore = true
            guard quantityStarts.contains(chars[start]) else { continue }
            guard let (quantity, end) = quantity(chars, from: start), skipSpaces(chars, end) == chars.count else { continue }
            var counted = quantity
            if counted.unit == nil, counted.amount != nil, counted.note == nil { counted.unit = "piece" }
            return (String(chars[..<start]), counted)
        }
        return nil
    }

    /// "salt to taste", "oil as needed".
    static func tasteSuffix(_ text: String) -> (String, Quantity)? {
        let lower = text.lowercased()
        for phrase in UnitWords.tastePhrases where lower.hasSuffix(" " + phrase) {
            return (String(text.dropLast(phrase.count)), Quantity(amount: nil, unit: "to_taste"))
        }
        return nil
    }

    /// A note that is nothing but a quantity: "50g", "少々", "to taste".
    static func whole(_ chars: [Character]) -> Quantity? {
        let text = String(chars).lowercased()
        if UnitWords.tastePhrases.contains(text) { return Quantity(amount: nil, unit: "to_taste") }
        guard let (quantity, end) = quantity(chars, from: 0), skipSpaces(chars, end) == chars.count else { return nil }
        return quantity
    }

    // MARK: - Reading a quantity

    struct Quantity: Equatable {
        var amount: Double?
        var unit: String?
        /// The quantity as written, kept when the amount alone would hide something (a range, 強, ounces, 合).
        var note: String?
    }

    /// A quantity starting at `start`, and where it ends. An amount past `ImportedRecipe.maxAmount`
    /// ("99999999999999999999 g", bounded while it is still a `Double`) is no amount: the quantity
    /// stays as written, in the note, for the person to correct.
    static func quantity(_ chars: [Character], from start: Int) -> (Quantity, Int)? {
        guard let (quantity, end) = writtenQuantity(chars, from: start) else { return nil }
        if let amount = quantity.amount, !(amount <= ImportedRecipe.maxAmount) {
            return (Quantity(amount: nil, unit: nil, note: String(chars[skipSpaces(chars, start)..<end])), end)
        }
        return (quantity, end)
    }

    private static func writtenQuantity(_ chars: [Character], from start: Int) -> (Quantity, Int)? {
        var i = skipSpaces(chars, start)
        // 約200g, 塩・こしょう 各少々: "about" and "each" add nothing to the amount.
        while i < chars.count, chars[i] == "約" || chars[i] == "各" { i = skipSpaces(chars, i + 1) }
        for (word, unit) in UnitWords.presence where matches(chars, i, word, ignoringCase: false) {
            return (Quantity(amount: word.contains("つまみ") ? 1 : nil, unit: unit), i + word.count)
        }
        let from = i
        for (word, unit) in UnitWords.beforeNumber where matches(chars, i, word, ignoringCase: false) {
            let j = skipSpaces(chars, i + word.count)
            guard let amount = amount(chars, j) else { continue }
            var end = amount.end
            if matches(chars, end, "杯", ignoringCase: false) { end += 1 }
            let (suffixEnd, moreOrLess) = suffixes(chars, end)
            let written = amount.range || moreOrLess ? String(chars[from..<suffixEnd]) : nil
            return (Quantity(amount: amount.value, unit: unit, note: written), suffixEnd)
        }
        if chars.indices.contains(i), chars[i] == "半",
            let (meaning, length) = unitWord(chars, i + 1) ?? (matches(chars, i + 1, "分", ignoringCase: false) ? (.unit("piece"), 1) : nil)
        {
            return quantity(amount: 0.5, range: false, meaning: meaning, chars, from: from, end: i + 1 + length)
        }
        guard let amount = amount(chars, i) else { return nil }
        let j = skipSpaces(chars, amount.end)
        guard let (meaning, length) = unitWord(chars, j) else {
            let written = amount.range ? String(chars[from..<amount.end]) : nil
            return (Quantity(amount: amount.value, unit: nil, note: written), amount.end)
        }
        var end = j + length
        // "tbsp.", "oz."
        if end < chars.count, chars[end] == ".", chars[j].isASCII { end += 1 }
        var value = amount.value
        if matches(chars, end, "半", ignoringCase: false) {
            value += 0.5
            end += 1
        }
        return quantity(amount: value, range: amount.range, meaning: meaning, chars, from: from, end: end)
    }

    private static func quantity(
        amount: Double, range: Bool, meaning: UnitWords.Meaning, _ chars: [Character], from: Int, end: Int
    ) -> (Quantity, Int) {
        let (suffixEnd, moreOrLess) = suffixes(chars, end)
        let written = String(chars[from..<suffixEnd])
        switch meaning {
        case .unit(let unit):
            return (Quantity(amount: amount, unit: unit, note: range || moreOrLess ? written : nil), suffixEnd)
        case .grams(let factor):
            return (Quantity(amount: (amount * factor).rounded(), unit: "g", note: written), suffixEnd)
        case .noteOnly:
            return (Quantity(amount: nil, unit: nil, note: written), suffixEnd)
        }
    }

    /// "two eggs", "a pinch of salt", "pinch of salt", "an onion".
    static func wordQuantity(_ chars: [Character]) -> (Quantity, Int)? {
        let firstSpace = chars.firstIndex(of: " ") ?? chars.count
        let word = String(chars[..<firstSpace]).lowercased()
        if word == "pinch" || word == "dash", matches(chars, firstSpace, " of ", ignoringCase: true) {
            return (Quantity(amount: 1, unit: "pinch"), firstSpace)
        }
        guard let value = UnitWords.numberWords[word], firstSpace < chars.count else { return nil }
        let j = firstSpace + 1
        if let (meaning, length) = unitWord(chars, j) {
            return quantity(amount: value, range: false, meaning: meaning, chars, from: 0, end: j + length)
        }
        // "a little salt", "a few leaves": no count to take.
        let next = String(chars[j...].prefix { $0 != " " }).lowercased()
        guard !["little", "few", "bit", "handful", "splash", "drizzle", "knob", "couple", "small", "dozen"].contains(next) || word == "a" && next == "dozen"
        else { return nil }
        if word == "a", next == "dozen" { return (Quantity(amount: 12, unit: nil), j + 5) }
        return (Quantity(amount: value, unit: nil), firstSpace)
    }

    /// A unit word at `i` and its length; a Latin word must end there ("g" is not the start of "garlic").
    static func unitWord(_ chars: [Character], _ i: Int) -> (UnitWords.Meaning, Int)? {
        for (word, meaning) in UnitWords.afterNumber where matches(chars, i, word, ignoringCase: true) {
            let end = i + word.count
            if word.first!.isASCII, end < chars.count, chars[end].isASCII, chars[end].isLetter { continue }
            return (meaning, word.count)
        }
        return nil
    }

    /// 強/弱 (said in the note), 程度/くらい (dropped); returns where they end and whether 強/弱 was there.
    static func suffixes(_ chars: [Character], _ start: Int) -> (Int, Bool) {
        var i = start
        var moreOrLess = false
        var progressed = true
        while progressed {
            progressed = false
            for word in UnitWords.moreOrLessAfter where matches(chars, i, word, ignoringCase: false) {
                i += word.count
                moreOrLess = true
                progressed = true
            }
            for word in UnitWords.approximateAfter where matches(chars, i, word, ignoringCase: false) {
                i += word.count
                progressed = true
            }
        }
        return (i, moreOrLess)
    }

    /// A number, a fraction, a mixed number ("1 1/2", "1-1/2", "1と1/2") or a range of them ("2-3", "2 to 3").
    static func amount(_ chars: [Character], _ start: Int) -> (value: Double, range: Bool, end: Int)? {
        guard let (first, end) = number(chars, start) else { return nil }
        var j = skipSpaces(chars, end)
        if j < chars.count, chars[j] == "-" {
            j += 1
        } else if matches(chars, j, "to ", ignoringCase: true) || matches(chars, j, "or ", ignoringCase: true) {
            j += 3
        } else {
            return (first, false, end)
        }
        guard let (_, rangeEnd) = number(chars, skipSpaces(chars, j)) else { return (first, false, end) }
        return (first, true, rangeEnd)
    }

    static func number(_ chars: [Character], _ start: Int) -> (Double, Int)? {
        guard let (whole, end) = plainNumber(chars, start) else { return nil }
        if let (denominator, fractionEnd) = denominator(chars, end) { return (whole / denominator, fractionEnd) }
        // A mixed number: "1 1/2", "1-1/2", "1と1/2".
        if whole == whole.rounded(), end < chars.count, [" ", "-", "と"].contains(chars[end]),
            let (numerator, numeratorEnd) = plainNumber(chars, end + 1), let (denominator, partEnd) = denominator(chars, numeratorEnd),
            denominator > numerator
        {
            return (whole + numerator / denominator, partEnd)
        }
        return (whole, end)
    }

    /// "/2" after a numerator.
    private static func denominator(_ chars: [Character], _ start: Int) -> (Double, Int)? {
        guard start < chars.count, chars[start] == "/", let (denominator, end) = plainNumber(chars, start + 1), denominator > 0,
            denominator == denominator.rounded()
        else { return nil }
        return (denominator, end)
    }

    /// Digits with an optional decimal part.
    private static func plainNumber(_ chars: [Character], _ start: Int) -> (Double, Int)? {
        var i = start
        var text = ""
        while i < chars.count, chars[i].isASCII, chars[i].isNumber {
            text.append(chars[i])
            i += 1
        }
        guard !text.isEmpty else { return nil }
        if i + 1 < chars.count, chars[i] == ".", chars[i + 1].isASCII, chars[i + 1].isNumber {
            text.append(".")
            i += 1
            while i < chars.count, chars[i].isASCII, chars[i].isNumber {
                text.append(chars[i])
                i += 1
            }
        }
        guard let value = Double(text) else { return nil }
        return (value, i)
    }

    // MARK: - Characters

    static func skipSpaces(_ chars: [Character], _ start: Int) -> Int {
        var i = start
        while i < chars.count, chars[i] == " " { i += 1 }
        return i
    }

    static func matches(_ chars: [Character], _ start: Int, _ word: String, ignoringCase: Bool) -> Bool {
        var i = start
        for expected in word {
            guard i < chars.count else { return false }
            let actual = chars[i]
            if ignoringCase, let a = actual.asciiValue, let e = expected.asciiValue {
                // ASCII (most unit words) without making a String of each character.
                if lowercase(a) != lowercase(e) { return false }
            } else if ignoringCase ? actual.lowercased() != expected.lowercased() : actual != expected {
                return false
            }
            i += 1
        }
        return true
    }

    private static func lowercase(_ ascii: UInt8) -> UInt8 { (0x41...0x5A).contains(ascii) ? ascii + 0x20 : ascii }
}
