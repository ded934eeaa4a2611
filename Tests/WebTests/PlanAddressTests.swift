import Inventory
import Testing

@testable import Web

/// Where the plan's forms send the person back: the week they were looking at, at what changed;
/// the week from today is `/plan` itself (the address a phone keeps to read offline).
@Suite struct PlanAddressTests {
    let today = CalendarDay("2026-11-28")

    func back(_ day: String?, shown: String?, anchor: String? = nil, _ extra: [String: String] = [:]) -> String {
        PlanController.back(to: day.flatMap { CalendarDay($0) }, shown: shown, today: today, anchor: anchor, extra)
    }

    @Test func theWeekFromTodayIsThePlanItselfAtTheDayChanged() {
        #expect(back("2026-11-30", shown: "2026-11-28") == "/plan#day-2026-11-30")
        // A cook from the plan names no page: the plan from today when it shows the meal.
        #expect(back("2026-12-04", shown: nil, anchor: "meal-7", ["cooked": "3"]) == "/plan?cooked=3#meal-7")
        #expect(back(nil, shown: "2026-11-28", anchor: "plan-shopping", ["added": "2", "list": "5"]) == "/plan?added=2&list=5#plan-shopping")
    }

    @Test func anotherWeekKeepsItsFirstDayAndADayBeyondItOpensItsOwnWeek() {
        #expect(back("2026-12-03", shown: "2026-12-01") == "/plan?from=2026-12-01#day-2026-12-03")
        #expect(back("2026-12-20", shown: "2026-12-01") == "/plan?from=2026-12-20#day-2026-12-20")
        #expect(back("2026-12-05", shown: nil) == "/plan?from=2026-12-05#day-2026-12-05")
        // What is not a day is no page: the meal's own week.
        #expect(back("2026-12-10", shown: "yesterday") == "/plan?from=2026-12-10#day-2026-12-10")
    }
}
