<?php
// The same stock-list page Zaiko serves at /folders/{id} (50 rows), rendered by PHP from Zaiko's own
// SQLite file: session lookup by the cookie's sha256, folder, folders, count, 50 rows. Texts come
// from Zaiko's catalogs (Templates/locales/*.json, turned once into a PHP array file that opcache
// keeps). Markup follows Templates/layout.mustache + list.mustache + partials/item-rows.mustache +
// partials/bulk-bar.mustache (ListPageView, ItemRowsView), unfiltered, without a notice. The
// statements are Zaiko's for that page: session, household, folder, its count, the page's rows, the
// household's folders.
// Used only as a benchmark peer (bench/same-page.sh): it reads, never writes.
declare(strict_types=1);

function e(string $s): string { return htmlspecialchars($s, ENT_QUOTES | ENT_SUBSTITUTE, 'UTF-8'); }
function not_found(): never { http_response_code(404); echo "not found"; exit; }

/** Zaiko's catalog for $code as a PHP array, cached as a PHP file (opcache keeps it compiled). */
function catalog(string $code): ?array {
    $json = getenv('ZAIKO_LOCALES') . "/$code.json";
    $php = (getenv('ZAIKO_CACHE') ?: sys_get_temp_dir()) . "/zaiko-catalog-$code-" . md5($json) . '.php';
    if (is_file($php)) { return include $php; }
    if (!is_file($json)) { return null; }
    $texts = json_decode(file_get_contents($json), true, 4, JSON_THROW_ON_ERROR);
    $tmp = $php . '.' . getmypid();
    file_put_contents($tmp, '<?php return ' . var_export($texts, true) . ';');
    rename($tmp, $php);
    return $texts;
}

/**
 * StaticURLs: a public file's address with its content's hash, FNV-1a 64 as Zaiko's ContentHash,
 * worked out once per version of the file (its size and time) and kept as a PHP file like the catalogs.
 */
function static_url(string $path): string {
    static $known = [];
    if (isset($known[$path])) { return $known[$path]; }
    $file = getenv('ZAIKO_PUBLIC') . "/$path";
    $info = @stat($file);
    if ($info === false) { return $known[$path] = "/static/$path"; }
    $php = (getenv('ZAIKO_CACHE') ?: sys_get_temp_dir()) . '/zaiko-static-' . md5("$file {$info['size']} {$info['mtime']}") . '.php';
    if (is_file($php)) { return $known[$path] = include $php; }
    $url = "/static/$path?v=" . hash('fnv1a64', file_get_contents($file));
    $tmp = $php . '.' . getmypid();
    file_put_contents($tmp, '<?php return ' . var_export($url, true) . ';');
    rename($tmp, $php);
    return $known[$path] = $url;
}

/** Catalog::plural: an exact form (`key_=1`), else the language's category (`key_one`), else the key. */
function plural(array $t, string $lang, string $key, string $number, string $count): string {
    $int = strstr($number, '.', true);
    $fraction = $int !== false;
    if ($int === false) { $int = $number; }
    $primary = strtolower(explode('-', $lang)[0]);
    if (in_array($primary, ['ja', 'zh', 'ko', 'th', 'vi', 'id', 'ms', 'lo', 'my', 'km'], true)) { $one = false; }
    elseif ($primary === 'fr' || $primary === 'pt') { $one = $int === '0' || $int === '1'; }
    else { $one = $int === '1' && !$fraction; }
    $chosen = isset($t["{$key}_=$number"]) ? "{$key}_=$number" : ($one && isset($t["{$key}_one"]) ? "{$key}_one" : $key);
    return str_replace('{count}', $count, $t[$chosen] ?? $chosen);
}

/** Quantity.text: 1, 0.5, 1.25 (three decimals at most, no needless zeros). */
function quantity_text(float $v): string {
    if ($v == floor($v) && abs($v) < 1e15) { return (string)(int)$v; }
    return rtrim(rtrim(sprintf('%.3f', $v), '0'), '.');
}

/** Catalog::quantityParts: the declined quantity split around its number ("", "2", " bottles"). */
function quantity_parts(array $t, string $lang, float $value, string $unit): array {
    $number = quantity_text($value);
    $key = "qty_$unit";
    if (!isset($t[$key])) { return ['', $number, ' ' . ($t["unit_$unit"] ?? "unit_$unit")]; }
    $text = plural($t, $lang, $key, $number, "\0");
    $mark = strpos($text, "\0");
    return $mark === false ? ['', $number, $text] : [substr($text, 0, $mark), $number, substr($text, $mark + 1)];
}

/** The folder icon that stands for a kind of food on items without a picture (ItemRowView.icon). */
const KIND_ICONS = ['meat' => 'meat', 'fish' => 'fish', 'vegetables' => 'vegetables', 'fruit' => 'fruit', 'dairy_eggs' => 'milk',
    'drinks' => 'bottle', 'seasonings' => 'spices', 'prepared' => 'rice'];
const KINDS = ['meat', 'fish', 'vegetables', 'fruit', 'dairy_eggs', 'drinks', 'seasonings', 'prepared', 'other'];
const STATUSES = ['unopened', 'opened', 'running_low'];
/** ItemUnit.step: one tap of − or + (Item.step: unless learned from use, item.use_step). */
const UNIT_STEPS = ['g' => 50, 'ml' => 100, 'kg' => 0.1, 'L' => 0.1];

$db = new PDO('sqlite:' . getenv('ZAIKO_DB'), null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$db->exec('PRAGMA query_only = 1');

$token = $_COOKIE['zaiko_session'] ?? '';
if ($token === '' || strlen($token) > 100) { header('Location: /login', true, 303); exit; }
$q = $db->prepare('SELECT s.id AS session_id, s.csrf_token, s.last_seen_at, s.expires_at, s.remember,
       m.id AS member_id, m.name AS member_name, m.login, m.role, m.language,
       h.id AS household_id, h.name AS household_name, h.time_zone, h.change_sequence
FROM session s JOIN member m ON m.id = s.member_id JOIN household h ON h.id = m.household_id
WHERE s.token_hash = ?');
$q->bindValue(1, hash('sha256', $token, true), PDO::PARAM_LOB);
$q->execute();
$me = $q->fetch(PDO::FETCH_ASSOC);
if (!$me || $me['expires_at'] <= gmdate('Y-m-d\TH:i:s\Z')) { header('Location: /login', true, 303); exit; }
$canWrite = $me['role'] !== 'viewer';

// The member's language, else the best of Accept-Language (by q, then order), else English.
$lang = 'en'; $t = null;
if ($me['language'] !== null && $me['language'] !== '') { $t = catalog($me['language']); if ($t !== null) { $lang = $me['language']; } }
if ($t === null && isset($_SERVER['HTTP_ACCEPT_LANGUAGE'])) {
    $ranked = [];
    foreach (explode(',', $_SERVER['HTTP_ACCEPT_LANGUAGE']) as $order => $part) {
        $pieces = array_map('trim', explode(';', $part));
        if ($pieces[0] === '') { continue; }
        $quality = 1.0;
        foreach (array_slice($pieces, 1) as $p) { if (str_starts_with($p, 'q=')) { $quality = (float)substr($p, 2); } }
        $ranked[] = [$pieces[0], $quality, $order];
    }
    usort($ranked, fn($a, $b) => [$b[1], $a[2]] <=> [$a[1], $b[2]]);
    foreach ($ranked as [$tag]) {
        if ($tag !== '*' && preg_match('/^[A-Za-z]{2,3}/', $tag, $m) && ($c = catalog(strtolower($m[0]))) !== null) {
            $t = $c; $lang = strtolower($m[0]); break;
        }
    }
}
$t ??= catalog('en');
$tx = fn(string $key): string => $t[$key] ?? $key;
/** displayName: an unrenamed starter folder reads in the reader's language. */
$folderName = fn(array $f): string => ($f['starter'] !== null && str_starts_with($f['starter'], 'starter_') && ($t[$f['starter']] ?? '') !== '')
    ? $t[$f['starter']] : $f['name'];

$folderId = (int)($_GET['id'] ?? 0);
$q = $db->prepare('SELECT * FROM folder WHERE id = ? AND household_id = ? AND deleted_at IS NULL');
$q->execute([$folderId, $me['household_id']]);
$folder = $q->fetch(PDO::FETCH_ASSOC) ?: not_found();
$q = $db->prepare('SELECT * FROM folder WHERE household_id = ? AND deleted_at IS NULL ORDER BY position, id');
$q->execute([$me['household_id']]);
$folders = $q->fetchAll(PDO::FETCH_ASSOC);
$q = $db->prepare('SELECT * FROM household WHERE id = ?');
$q->execute([$me['household_id']]);
$household = $q->fetch(PDO::FETCH_ASSOC) ?: not_found();
$isStock = $folder['kind'] === 'stock';
$hasShopping = false;
foreach ($folders as $f) { if ($f['kind'] === 'shopping') { $hasShopping = true; } }

$q = $db->prepare('SELECT item_count FROM folder WHERE id = ?');
$q->execute([$folderId]);
$total = (int)$q->fetchColumn();
$pages = max(1, intdiv($total + 49, 50));
$page = min(max(1, (int)($_GET['page'] ?? 1)), $pages);
$order = $isStock ? 'due IS NULL, due, name' : 'urgent DESC, name';
$q = $db->prepare("SELECT * FROM item WHERE folder_id = ? AND deleted_at IS NULL ORDER BY $order LIMIT ? OFFSET ?");
$q->execute([$folderId, 50, ($page - 1) * 50]);
$rows = $q->fetchAll(PDO::FETCH_ASSOC);

$tz = new DateTimeZone($household['time_zone'] ?: 'UTC');
$now = new DateTimeImmutable('now', $tz);
$today = $now->format('Y-m-d');
$soon = $now->modify('+' . max(0, (int)$household['due_soon_days']) . ' days')->format('Y-m-d');
// Foundation's abbreviated date: "Nov 25, 2026" in English, "2026年11月25日" in Japanese.
$dayFormat = $lang === 'ja' ? 'Y年n月j日' : 'M j, Y';
$days = [];
$todayDate = new DateTimeImmutable($today);
// DueDistance.words: "in 2 days", "tomorrow", "2 days ago" within 14 days either way; not for today.
$distance = function (string $due) use ($t, $lang, $todayDate): ?string {
    $between = $todayDate->diff(new DateTimeImmutable($due));
    $n = (int)$between->days;
    if ($n > 14) { return null; }
    return $between->invert ? plural($t, $lang, 'due_days_ago', (string)$n, (string)$n) : plural($t, $lang, 'due_in_days', (string)$n, (string)$n);
};
$dueIn = [];
// The rows' view (ItemRowView): due state and word, date, picture, kind and status words, quantity parts.
$rows = array_map(function (array $r, int $i) use ($rows, $t, $tx, $lang, $today, $soon, $dayFormat, &$days, $distance, &$dueIn): array {
    $due = $r['due'];
    $state = match (true) { $due === null => 'none', $due < $today => 'expired', $due === $today => 'today', $due <= $soon => 'soon', default => 'later' };
    if ($due !== null) {
        $days[$due] ??= (new DateTimeImmutable($due))->format($dayFormat);
        if (!array_key_exists($due, $dueIn)) { $dueIn[$due] = $distance($due); }
    }
    [$before, $number, $after] = quantity_parts($t, $lang, (float)$r['quantity'], $r['unit']);
    $next = $rows[$i + 1]['id'] ?? ($rows[$i - 1]['id'] ?? null);
    return [
        'id' => (int)$r['id'], 'name' => $r['name'], 'state' => $state, 'urgent' => (bool)$r['urgent'],
        'dueWord' => in_array($state, ['expired', 'today', 'soon'], true) ? $tx("due_$state") : null,
        'dueText' => $due === null ? null : $days[$due],
        'dueIn' => $due === null || $state === 'today' ? null : $dueIn[$due],
        'thumbnail' => match (true) {
            $r['photo'] !== null => "/photos/{$r['photo']}/128",
            $r['illustration'] !== null => static_url("illustrations/{$r['illustration']}.svg"),
            default => static_url('icons/folders/' . (KIND_ICONS[$r['kind']] ?? 'box') . '.svg'),
        },
        'hasPicture' => $r['photo'] !== null || $r['illustration'] !== null,
        'kindText' => $tx("kind_{$r['kind']}"), 'status' => $r['status'],
        'statusText' => $r['status'] === null ? null : $tx("status_{$r['status']}"),
        'before' => $before, 'number' => $number, 'after' => $after,
        'step' => quantity_text($r['use_step'] ?? UNIT_STEPS[$r['unit']] ?? 1),
        'neighbour' => $next === null ? null : (int)$next,
    ];
}, $rows, array_keys($rows));
$link = fn(int $p): string => "/folders/$folderId" . ($p > 1 ? "?page=$p" : '');
$here = $link($page);
$name = e($folderName($folder));
$memberName = e($me['member_name']);
$csrf = e($me['csrf_token']);
header('Content-Type: text/html; charset=utf-8');
header("Content-Security-Policy: default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'");
header('X-Content-Type-Options: nosniff');
header('X-Frame-Options: DENY');
header('Referrer-Policy: same-origin');
header('Cache-Control: no-store');
?>
<!DOCTYPE html>
<html lang="<?= e($lang) ?>">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title><?= $name ?> · <?= e($tx('app_name')) ?></title>
<link rel="stylesheet" href="<?= static_url('css/app.css') ?>">
<link rel="icon" href="<?= static_url('icons/zaiko.svg') ?>" type="image/svg+xml">
<link rel="manifest" href="<?= static_url('manifest.webmanifest') ?>">
<script src="<?= static_url('js/app.js') ?>" defer></script>
</head>
<body data-member="<?= (int)$me['member_id'] ?>" data-since="<?= (int)$me['change_sequence'] ?>" data-live-changed-by="<?= e($tx('live_changed_by')) ?>" data-live-changed="<?= e($tx('live_changed')) ?>" data-live-show="<?= e($tx('live_show')) ?>" data-type-amount="<?= e($tx('row_type_amount')) ?>" data-type-amount-invalid="<?= e($tx('quantity_invalid')) ?>">
<a class="skip-link" href="#main"><?= e($tx('skip_to_content')) ?></a>
<header class="site-header">
<a class="brand" href="/"><img src="<?= static_url('icons/zaiko.svg') ?>" alt="" width="32" height="32"><span class="brand-name"><?= e($tx('app_name')) ?></span></a>
<nav class="site-nav" aria-label="<?= e($tx('nav_label')) ?>">
<a href="/"><?= e($tx('nav_folders')) ?></a>
<a href="/calendar"><?= e($tx('nav_calendar')) ?></a>
<a href="/recipes"><?= e($tx('nav_recipes')) ?></a>
<a href="/plan"><?= e($tx('nav_plan')) ?></a>
<?php if ($me['role'] === 'owner'): ?><a href="/settings"><?= e($tx('nav_settings')) ?></a><?php endif ?>

<a href="/account" aria-label="<?= e($tx('nav_account')) ?>: <?= $memberName ?>"><?= $memberName ?></a>
<form method="post" action="/logout" class="inline-form nav-logout"><input type="hidden" name="_csrf" value="<?= $csrf ?>"><button type="submit" class="link-button"><?= e($tx('nav_logout')) ?></button></form>
</nav>
</header>
<main id="main" tabindex="-1">
<p class="offline-banner" role="status" data-text="<?= e($tx('offline_banner')) ?>" data-time-zone="<?= e($me['time_zone']) ?>" hidden></p>
<?php if ($canWrite): ?>
<p class="queue-banner" role="status" data-one="<?= e($tx('queue_waiting_one')) ?>" data-other="<?= e($tx('queue_waiting')) ?>" data-retrying="<?= e($tx('queue_retrying')) ?>" data-sign-in="<?= e($tx('queue_sign_in')) ?>" data-sent="<?= e($tx('queue_sent')) ?>" data-row-waiting="<?= e($tx('queue_row_waiting')) ?>" data-failed="<?= e($tx('queue_failed')) ?>" data-not-saved="<?= e($tx('queue_not_saved')) ?>" data-dismiss="<?= e($tx('dismiss')) ?>" hidden></p>
<?php endif ?>
<div class="list-head">
<h1><?= $name ?></h1>
<p class="hint"><?= e(plural($t, $lang, 'item_count', (string)$total, (string)$total)) ?></p>
<?php if ($canWrite): ?><a class="button head-add" href="/items/new?folder=<?= $folderId ?>">＋ <?= e($tx('add_items')) ?></a><?php endif ?>

</div>
<div class="filter-bar">
<details class="filters">
<summary><span class="filter-title"><?= e($tx('filters')) ?></span></summary>
<form method="get" action="/folders/<?= $folderId ?>" class="filter-form">
<div class="field">
<label for="filter-q"><?= e($tx('filter_search')) ?></label>
<input id="filter-q" type="search" name="q" value="" maxlength="100">
</div>
<fieldset class="kind-filter">
<legend><?= e($tx('filter_kinds')) ?></legend>
<?php foreach (KINDS as $k): ?><label class="chip"><input type="checkbox" name="kind" value="<?= $k ?>"><span><?= e($tx("kind_$k")) ?></span></label><?php endforeach ?>

</fieldset>
<?php if ($isStock): ?>
<div class="field">
<label for="filter-status"><?= e($tx('filter_status')) ?></label>
<select id="filter-status" name="status"><option value="" selected><?= e($tx('filter_any_status')) ?></option><?php foreach (STATUSES as $k): ?><option value="<?= $k ?>"><?= e($tx("status_$k")) ?></option><?php endforeach ?></select>
</div>
<fieldset class="due-filter">
<legend><?= e($tx('filter_due')) ?></legend>
<label class="chip"><input type="checkbox" name="due" value="expired"><span><?= e($tx('filter_expired')) ?></span></label>
</fieldset>
<?php endif ?>
<div class="filter-actions">
<button class="button" type="submit"><?= e($tx('filter_apply')) ?></button>

</div>
</form>
</details>

</div>

<form method="post" action="/folders/<?= $folderId ?>/bulk" class="list-form">
<input type="hidden" name="_csrf" value="<?= $csrf ?>">
<input type="hidden" name="return" value="<?= e($here) ?>">
<?php if ($rows): ?>
<?php if ($canWrite): ?><p class="select-all" hidden><label><input type="checkbox" data-select-all="ids"> <?= e($tx('select_all')) ?></label></p><?php endif ?>

<ul class="item-list">
<?php foreach ($rows as $r): $id = $r['id']; $n = e($r['name']); ?>
<li class="item-row row-compact<?= $canWrite ? ' with-check' : '' ?> due-<?= $r['state'] ?><?= $r['urgent'] ? ' is-urgent' : '' ?>" id="item-<?= $id ?>">
<?php if ($canWrite): ?>
<input class="row-check" type="checkbox" name="ids" value="<?= $id ?>" id="pick-<?= $id ?>" aria-label="<?= e($tx('select')) ?> <?= $n ?>">
<?php endif ?>
<img class="item-thumb<?= $r['hasPicture'] ? ' has-picture' : '' ?>" src="<?= e($r['thumbnail']) ?>" alt="" width="48" height="48" loading="lazy">
<a class="item-name" href="/items/<?= $id ?>"><?= $n ?></a>
<p class="item-meta">
<?php if ($r['urgent']): ?>
<span class="tag tag-urgent"><span aria-hidden="true">!</span> <?= e($tx('urgent')) ?></span>
<?php endif ?>
<?php if ($r['dueWord'] !== null): ?>
<span class="tag tag-<?= $r['state'] ?>"><?= e($r['dueWord']) ?></span>
<?php endif ?>
<?php if ($r['dueText'] !== null): ?>
<span class="due"><span class="due-label"><?= e($tx('due_label')) ?> </span><?= e($r['dueText']) ?></span>
<?php endif ?>
<?php if ($r['dueIn'] !== null): ?>
<span class="due-in"><?= e($r['dueIn']) ?></span>
<?php endif ?>
<span class="item-kind"><?= e($r['kindText']) ?></span><?php if ($r['status'] !== null): ?>

<span class="item-status status-<?= e($r['status']) ?>"><?= e($r['statusText']) ?></span><?php endif ?>

</p>
<div class="item-qty">
<?php if ($canWrite): ?>
<button class="step" type="submit" formaction="/items/<?= $id ?>/quantity" name="delta" value="-<?= $r['step'] ?>" aria-label="<?= e($tx('decrease')) ?> <?= $n ?>">−</button>
<?php endif ?>
<span class="qty"><?php if ($r['before'] !== ''): ?><small><?= e($r['before']) ?></small><?php endif ?><?= e($r['number']) ?><small><?= e($r['after']) ?></small></span>
<?php if ($canWrite): ?>
<button class="step" type="submit" formaction="/items/<?= $id ?>/quantity" name="delta" value="<?= $r['step'] ?>" aria-label="<?= e($tx('increase')) ?> <?= $n ?>">+</button>
<?php endif ?>
</div>
<?php if ($canWrite): ?>
<details class="row-menu">
<summary><span aria-hidden="true">⋯</span><span class="visually-hidden"><?= e($tx('row_menu')) ?> <?= $n ?></span></summary>
<div class="row-menu-items">
<?php if ($isStock && $r['status'] !== 'opened'): ?>
<button class="link-button" type="submit" formaction="/items/<?= $id ?>/opened"><?= e($tx('mark_opened')) ?><span class="visually-hidden"> <?= $n ?></span></button>
<?php endif ?>
<?php if (!$isStock): ?>
<button class="link-button" type="submit" formaction="/items/<?= $id ?>/urgent" name="urgent" value="<?= $r['urgent'] ? '0' : '1' ?>"><?= e($tx($r['urgent'] ? 'mark_not_urgent' : 'mark_urgent')) ?><span class="visually-hidden"> <?= $n ?></span></button>
<?php endif ?>
<?php if ($isStock && $hasShopping): ?>
<button class="link-button" type="submit" formaction="/items/<?= $id ?>/buy-again"><?= e($tx('buy_again')) ?><span class="visually-hidden"> <?= $n ?></span></button>
<?php endif ?>
<a class="link-button" href="/items/<?= $id ?>/edit?return=<?= e($here) ?>"><?= e($tx('edit')) ?><span class="visually-hidden"> <?= $n ?></span></a>
<button class="link-button danger" type="submit" formaction="/items/<?= $id ?>/delete"<?php if ($r['neighbour'] !== null): ?> name="next" value="<?= $r['neighbour'] ?>"<?php endif ?>><?= e($tx('delete')) ?><span class="visually-hidden"> <?= $n ?></span></button>
</div>
</details>
<?php endif ?>
</li>
<?php endforeach ?>

</ul>
<?php if ($canWrite): ?>
<div class="bulk-bar" role="region" aria-label="<?= e($tx('bulk_bar_label')) ?>" data-count-one="<?= e($tx('bulk_selected_one')) ?>" data-count-other="<?= e($tx('bulk_selected')) ?>">
<p class="bulk-title"><span class="bulk-count" aria-live="polite"></span><span class="bulk-lead"><?= e($tx('with_selected')) ?></span></p>

<?php if (!$isStock): $stock = array_filter($folders, fn($f) => $f['kind'] === 'stock'); $remembered = $folder['last_stock_folder_id'] ?? (reset($stock)['id'] ?? null); if ($stock): ?>
<div class="bulk-group bulk-primary">
<label for="bulk-stock"><?= e($tx('bought_into')) ?></label>
<select id="bulk-stock" name="stock"><?php foreach ($stock as $f): ?><option value="<?= (int)$f['id'] ?>"<?= $f['id'] == $remembered ? ' selected' : '' ?>><?= e($folderName($f)) ?></option><?php endforeach ?></select>
<button class="button" type="submit" name="action" value="bought"><?= e($tx('mark_bought')) ?></button>
</div>

<?php endif; endif ?>
<?php $shopping = array_filter($folders, fn($f) => $f['kind'] === 'shopping'); if ($isStock && $shopping): ?>
<div class="bulk-group">
<label for="bulk-shopping"><?= e($tx('buy_again_onto')) ?></label>
<select id="bulk-shopping" name="shopping"><?php foreach ($shopping as $f): ?><option value="<?= (int)$f['id'] ?>"><?= e($folderName($f)) ?></option><?php endforeach ?></select>
<button class="button button-secondary" type="submit" name="action" value="buy_again"><?= e($tx('buy_again')) ?></button>
</div>
<?php endif ?>
<?php if (count($folders) > 1): ?>
<div class="bulk-group">
<label for="bulk-target"><?= e($tx('move_to')) ?></label>
<select id="bulk-target" name="target"<?= $isStock ? '' : ' aria-describedby="bulk-move-hint"' ?>><?php foreach ($folders as $f): if ((int)$f['id'] === $folderId) continue; ?><option value="<?= (int)$f['id'] ?>"><?= e($folderName($f)) ?></option><?php endforeach ?></select>
<button class="button button-secondary" type="submit" name="action" value="move"><?= e($tx('move')) ?></button>
<?php if (!$isStock): ?><p class="bulk-hint" id="bulk-move-hint"><?= e($tx('move_hint_shopping')) ?></p><?php endif ?>

</div>
<?php endif ?>
<button class="button button-danger" type="submit" name="action" value="delete"><?= e($tx('delete_selected')) ?></button>
</div>

<?php endif ?>
<?php else: ?>
<p class="empty"><?= e($tx('list_empty')) ?></p>
<?php endif ?>
</form>

<?php if ($pages > 1): ?>
<nav class="pager" aria-label="<?= e($tx('pages')) ?>">
<?php if ($page > 1): ?><a class="button button-secondary" rel="prev" href="<?= $link($page - 1) ?>">← <?= e($tx('previous')) ?></a><?php endif ?>

<span><?= e(str_replace(['{page}', '{pages}'], [(string)$page, (string)$pages], $tx('page_of'))) ?></span>
<?php if ($page < $pages): ?><a class="button button-secondary" rel="next" href="<?= $link($page + 1) ?>"><?= e($tx('next')) ?> →</a><?php endif ?>

</nav>
<?php endif ?>
<?php if ($canWrite): ?><p class="list-import"><a href="/import?folder=<?= $folderId ?>"><?= e($tx('list_import_link')) ?></a></p><?php endif ?>

<?php if ($canWrite): ?><a class="fab button" href="/items/new?folder=<?= $folderId ?>">＋ <?= e($tx('add_items')) ?></a><?php endif ?>


</main>
<footer class="site-footer"><?= e($tx('footer_tagline')) ?></footer>
</body>
</html>
