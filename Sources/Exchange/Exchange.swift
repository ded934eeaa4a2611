// Exchange: one household's data in and out of Zaiko (export ZIP with JSON and CSV, CSV import
// of items, a household moved between servers, Grocy's database). Knows nothing of HTTP.
