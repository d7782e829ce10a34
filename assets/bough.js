// Progressive enhancement only: every page reads fully without this script.
(function () {
  // The element the address's fragment names, or null.
  function hashTarget() {
    var id = location.hash.slice(1);
    // A hand-typed "#%" is no escape sequence: look it up as written rather than stop the script.
    try {
      id = decodeURIComponent(id);
    } catch (e) {}
    return (id && document.getElementById(id)) || null;
  }

  // Where reveal() scrolled to, while the reader has not scrolled away.
  var revealedAt = null;

  // Single-key shortcuts (/ search; t, o, e on a session page) can be turned off, as WCAG 2.1.4
  // asks: speech input and stray typing would set them off. A box at the foot of every page (and
  // in a session's toolbar) says whether they are on; the choice is remembered where the browser
  // lets a file:// page remember it.
  var KEYS_SETTING = 'bough-single-key-shortcuts';
  var keysOn = true;
  try {
    keysOn = window.localStorage.getItem(KEYS_SETTING) !== 'off';
  } catch (e) {}
  var keysBoxes = [];
  function keysBox(words) {
    var label = document.createElement('label');
    label.className = 'keys-setting';
    var box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = keysOn;
    box.addEventListener('change', function () {
      keysOn = box.checked;
      keysBoxes.forEach(function (other) { other.checked = keysOn; });
      try {
        window.localStorage.setItem(KEYS_SETTING, keysOn ? 'on' : 'off');
      } catch (e) {}
    });
    keysBoxes.push(box);
    label.appendChild(box);
    label.appendChild(document.createTextNode(' ' + words));
    return label;
  }
  // A key the page may take as a shortcut: shortcuts on, no modifier, and not typed into a field.
  function shortcutKey(event) {
    var target = event.target;
    return keysOn && !event.ctrlKey && !event.metaKey && !event.altKey && !(target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable));
  }

  // When a link targets an entry folded inside <details>, unfold the way to it, and go to it: the
  // browser scrolled to the fragment while it was folded away (or not at all, or before unfolding).
  function reveal() {
    var target = hashTarget();
    if (!target) return;
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') node.open = true;
    }
    // A link to a sub-agent's transcript (from the call that started it) is to read it: unfolded.
    if (target.classList.contains('subagent-files')) {
      var transcript = target.querySelector('details.subagent-file');
      if (transcript) transcript.open = true;
    }
    // A view of the toolbar's that hides it (prompts only, no tool calls): back to everything, or
    // the link would go nowhere.
    if (target.getClientRects().length === 0 && showEverything) showEverything();
    settle(target);
  }

  /** Set by a session page's toolbar: shows every entry again, its button pressed. */
  var showEverything = null;

  // Entries far from the screen are not laid out (content-visibility), so the browser places the
  // target by their estimated height and it lands off the screen once those near it are drawn:
  // go to it again, frame by frame, until the page stops moving.
  function settle(target) {
    var frames = 0;
    var steady = 0;
    function step() {
      var top = target.getBoundingClientRect().top;
      var atBottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
      var placed = Math.abs(top) < 2 || (atBottom && top >= 0 && top < window.innerHeight);
      steady = placed ? steady + 1 : 0;
      if (!placed) target.scrollIntoView();
      revealedAt = window.scrollY;
      // Placed for a few frames in a row: what is near the screen has been drawn.
      if (steady < 3 && ++frames < 90) window.requestAnimationFrame(step);
    }
    target.scrollIntoView();
    window.requestAnimationFrame(step);
  }

  // What loads after the page's text (its images) moves what follows: to the target again, unless the reader has scrolled since.
  window.addEventListener('load', function () {
    var target = hashTarget();
    if (target && revealedAt !== null && window.scrollY === revealedAt) target.scrollIntoView();
  });

  // Tables of numbers sort by a click on a header; without the script they read in their own order (by cost, or by time).
  function sortable(table) {
    var heads = table.tHead ? table.tHead.rows[0].cells : [];
    var body = table.tBodies[0];
    if (!body) return;
    Array.prototype.forEach.call(heads, function (th, index) {
      var button = document.createElement('button');
      button.type = 'button';
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      // The whole header cell sorts, not only its words (the button, for the keyboard).
      th.addEventListener('click', function (event) {
        if (event.target === th) button.click();
      });
      button.addEventListener('click', function () {
        var numeric = th.classList.contains('num');
        var descending = th.getAttribute('aria-sort') === 'descending' ? false : th.getAttribute('aria-sort') === 'ascending' ? true : numeric;
        var rows = Array.prototype.slice.call(body.rows);
        var key = function (row) {
          var cell = row.cells[index];
          if (!cell) return numeric ? -Infinity : '';
          var value = cell.hasAttribute('data-sort') ? cell.getAttribute('data-sort') : cell.textContent.trim();
          if (!numeric) return value.toLowerCase();
          var number = parseFloat(value);
          return isNaN(number) ? -Infinity : number;
        };
        rows.sort(function (a, b) {
          var x = key(a);
          var y = key(b);
          var order = x < y ? -1 : x > y ? 1 : 0;
          return descending ? -order : order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
        Array.prototype.forEach.call(heads, function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      });
    });
  }

  // A session page's toolbar: what to show (everything, prompts only, no tool calls), unfold or
  // fold everything, and keys: t thinking, o tool output (a call's arguments, a file read or
  // written, a long output's rest), e everything. Without the script the page shows everything,
  // folded as written.
  function sessionToolbar(bar) {
    function button(label, onClick) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = label;
      b.addEventListener('click', onClick);
      return b;
    }
    // Those in view only: one inside a folded part (a sub-agent's transcript) stays as it is.
    function toggle(selector) {
      var all = Array.prototype.filter.call(document.querySelectorAll(selector), function (d) { return !d.parentElement || d.parentElement.closest('details:not([open])') === null; });
      var open = Array.prototype.some.call(all, function (d) { return !d.open; });
      Array.prototype.forEach.call(all, function (d) { d.open = open; });
    }
    var show = document.createElement('span');
    show.className = 'toolbar-group';
    show.setAttribute('role', 'group');
    show.setAttribute('aria-label', 'Show');
    // The view chosen is kept while the tab is open, where the browser lets a file:// page keep
    // it: the next part of a long session opens as the reader left the last.
    var VIEW_SETTING = 'bough-session-view';
    var kept = null;
    try {
      kept = window.sessionStorage.getItem(VIEW_SETTING);
    } catch (e) {}
    [['all', 'Everything'], ['prompts', 'Prompts only'], ['no-tools', 'Hide tool calls']].forEach(function (choice) {
      var b = button(choice[1], function () {
        document.body.setAttribute('data-show', choice[0]);
        Array.prototype.forEach.call(show.children, function (other) { other.setAttribute('aria-pressed', String(other === b)); });
        try {
          window.sessionStorage.setItem(VIEW_SETTING, choice[0]);
        } catch (e) {}
      });
      b.setAttribute('aria-pressed', String(choice[0] === 'all'));
      if (choice[0] === 'all') showEverything = function () { b.click(); };
      show.appendChild(b);
      if (choice[0] === kept && kept !== 'all') b.click();
    });
    var fold = document.createElement('span');
    fold.className = 'toolbar-group';
    fold.appendChild(button('Unfold all', function () { Array.prototype.forEach.call(document.querySelectorAll('main details'), function (d) { d.open = true; }); }));
    fold.appendChild(button('Fold all', function () { Array.prototype.forEach.call(document.querySelectorAll('main details'), function (d) { d.open = false; }); }));
    var keys = document.createElement('span');
    keys.className = 'note';
    keys.textContent = 'Keys: t thinking · o tool output · e everything';
    bar.appendChild(show);
    bar.appendChild(fold);
    bar.appendChild(keys);
    bar.appendChild(keysBox('Single-key shortcuts'));
    document.addEventListener('keydown', function (event) {
      if (!shortcutKey(event)) return;
      if (event.key === 't') toggle('main details.thinking');
      else if (event.key === 'o') toggle('main details.tool-output, main details.tool-file, main .tool-call details');
      else if (event.key === 'e') toggle('main details');
    });
  }

  // What of the replies the index holds, said with each search: none, or some, by their opening
  // words (an index written before the count of replies says only that some were left out).
  var REPLIES_BY_OPENING = 'Replies are searched by their opening words; on a session\u2019s page, the browser\u2019s own find (Ctrl+F) looks through all of it.';

  function repliesSearched(index) {
    var total = index.replies;
    if (typeof total !== 'number') return 'Replies are searched by their opening words, and only while the index stays small.';
    if (index.repliesLeftOut >= total) return 'Replies are not searched: the prompts fill the index, which stays small.';
    return (total - index.repliesLeftOut).toLocaleString('en-US') + ' of ' + total.toLocaleString('en-US') + ' replies are searched, by their opening words: the index stays small.';
  }

  // Search across the archive from file://: the index is .js files loaded with <script> on first
  // use (file:// pages cannot fetch). Every word, and every "quoted phrase", must match, in any
  // case and with or without accents; results link to the exact entry.
  function archiveSearch(form) {
    var root = form.getAttribute('data-root') || '';
    var input = form.querySelector('input');
    var out = document.querySelector('[data-search-results]');
    var index = null;
    var shards = [];
    var requested = false;
    var failed = false;
    // Parts of the index whose file could not be loaded (a report folder copied in part).
    var missing = 0;
    var LIMIT = 100;
    var KINDS = { p: 'prompt', r: 'reply', f: 'file', s: 'sub-agent', t: 'title' };
    form.hidden = false;

    // A part that loads and gives nothing (cut short, emptied: no error event) failed too.
    function load(path, onFail, gave) {
      var script = document.createElement('script');
      script.src = root + path;
      script.onerror = function () { onFail(); run(); };
      script.onload = function () { if (!gave()) { onFail(); run(); } };
      document.head.appendChild(script);
    }
    function start() {
      if (requested) return;
      requested = true;
      load('search/index.js', function () { failed = true; }, function () { return index !== null; });
    }
    window.boughSearchIndex = function (data) {
      index = data;
      shards = new Array(data.shards);
      for (var n = 0; n < data.shards; n++) (function (n) { load('search/shard-' + n + '.js', function () { missing++; }, function () { return !!shards[n]; }); })(n);
      run();
    };
    window.boughSearchShard = function (n, rows) {
      shards[n] = rows;
      run();
    };
    // Text as it is searched: lower case, accents and other marks dropped, ß as ss, a curly
    // apostrophe as a straight one, so that "cafe" finds "Café", "ISTANBUL" "İstanbul" and "don't"
    // "don’t", curly double quotes as straight ones, a final sigma as σ (a word in capitals ends in
    // one only when lowered whole, not letter by letter as matches are marked, nor as typed with σ).
    // ASCII text (most of it) is only lowered.
    // Markdown's emphasis and code marks (* _ ~ `) are
    // dropped too, from the text and the query alike: the index holds a message as its page shows
    // it, `__init__.py` as a bold "init.py", while a prompt's outline and tree show it as typed.
    var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
    var EMPHASIS = /[*_~`]/g;
    function fold(text) {
      var lower = text.toLowerCase().replace(EMPHASIS, '');
      // Composed again once the marks are gone: a Korean syllable or a voiced kana stays one
      // letter, not the parts NFD splits it into (regression: "무" found "문", its first parts).
      return /[^\x00-\x7f]/.test(lower) ? lower.normalize('NFD').replace(MARKS, '').normalize('NFC').replace(/\u00df/g, 'ss').replace(/\u03c2/g, '\u03c3').replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"') : lower;
    }
    // The same, with where each folded character came from in the text: to mark what matched.
    function foldWithPlaces(text) {
      var folded = '';
      var places = [];
      for (var i = 0; i < text.length; ) {
        var ch = String.fromCodePoint(text.codePointAt(i));
        var f = fold(ch);
        for (var k = 0; k < f.length; k++) { folded += f[k]; places.push(i); }
        i += ch.length;
      }
      places.push(text.length);
      return { text: folded, places: places };
    }
    // The terms of a query: its words, and each "quoted phrase" as one term.
    // A "quoted phrase" is one between quotes that stand apart (typed straight or curly); a quote
    // inside a word (alert("x")) is part of it, as the text has it.
    function termsOf(query) {
      var terms = [];
      var re = /(?:^|\s)"([^"]+)"(?=\s|$)|(\S+)/g;
      var m;
      var straight = query.replace(/[\u201c\u201d\u201e\u00ab\u00bb]/g, '"');
      while ((m = re.exec(straight)) !== null) {
        var term = fold((m[1] != null ? m[1] : m[2].replace(/^"+|"+$/g, '')).replace(/\s+/g, ' ').trim());
        if (term !== '') terms.push(term);
      }
      return terms;
    }
    // Folded texts, made once per row on its first search.
    var foldedRows = [];
    var foldedTitles = [];
    function foldedRow(n, r) {
      var rows = foldedRows[n] || (foldedRows[n] = []);
      var text = rows[r];
      if (text == null) text = rows[r] = fold(shards[n][r][3]);
      return text;
    }
    function matches(folded, words) {
      for (var i = 0; i < words.length; i++) if (folded.indexOf(words[i]) === -1) return false;
      return true;
    }
    function isLowHalf(text, at) {
      var code = text.charCodeAt(at);
      return code >= 0xdc00 && code <= 0xdfff;
    }
    // The matching line, cut around the first match, with every word marked.
    function line(text, words) {
      // Composed first, as the row was matched: folded a letter at a time, a syllable written in
      // its parts (as macOS names files) was never found again here, and the line showed no match.
      if (/[^\x00-\x7f]/.test(text)) text = text.normalize('NFC');
      var whole = foldWithPlaces(text);
      var first = whole.text.indexOf(words[0]);
      var at = first === -1 ? 0 : whole.places[first];
      var start = Math.max(0, at - 60);
      var end = Math.min(text.length, start + 220);
      // Cut between characters, not inside an emoji's pair of halves.
      if (start > 0 && isLowHalf(text, start)) start--;
      if (end < text.length && isLowHalf(text, end)) end++;
      var shown = (start > 0 ? '…' : '') + text.slice(start, end) + (end < text.length ? '…' : '');
      var p = document.createElement('p');
      p.className = 'search-line';
      var folded = foldWithPlaces(shown);
      // `i` walks the folded text, `from` the text shown: what folding drops (a mark, an accent)
      // between two matches is shown as written.
      var i = 0;
      var from = 0;
      while (i < folded.text.length) {
        var next = -1;
        var word = '';
        words.forEach(function (w) {
          if (w === '') return;
          var found = folded.text.indexOf(w, i);
          if (found !== -1 && (next === -1 || found < next)) { next = found; word = w; }
        });
        if (next === -1) break;
        var markFrom = folded.places[next];
        var markTo = folded.places[next + word.length];
        if (markFrom > from) p.appendChild(document.createTextNode(shown.slice(from, markFrom)));
        var mark = document.createElement('mark');
        mark.textContent = shown.slice(markFrom, markTo);
        p.appendChild(mark);
        i = next + word.length;
        from = markTo;
      }
      if (from < shown.length) p.appendChild(document.createTextNode(shown.slice(from)));
      return p;
    }
    function result(session, kind, href, text, words) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = root + href;
      a.textContent = session[0];
      li.appendChild(a);
      var meta = document.createElement('span');
      meta.className = 'note';
      meta.textContent = ' · ' + [session[1], session[2], KINDS[kind]].filter(Boolean).join(' · ');
      li.appendChild(meta);
      li.appendChild(line(text, words));
      return li;
    }
    // What the list shows now: drawn again only when the query or the loaded index changed, so a
    // result is never replaced under a click (a redraw between press and release loses the click).
    var drawn = null;
    // Only the status line is read out as it changes: the list it counts is not, which would hand
    // a screen reader every result again on each key. Read out from a live region of its own, in the
    // form, there from the start: one shown in the same step as its text is often not announced.
    var status = document.createElement('p');
    status.className = 'note';
    var live = document.createElement('p');
    live.className = 'sr-only';
    live.setAttribute('role', 'status');
    form.appendChild(live);
    function say(text) { status.textContent = text; live.textContent = text; }
    var listBox = document.createElement('div');
    out.appendChild(status);
    out.appendChild(listBox);
    function run() {
      var query = input.value.trim().toLowerCase();
      if (query === '') { out.hidden = true; drawn = null; return; }
      // Two characters (not UTF-16 units: an emoji is one), or one that is a word of its own (汉, ✅),
      // as searched: "é" is searched as "e".
      var searched = fold(query);
      // A query of marks alone (`*`, `__`) folds to nothing: nothing to look for.
      if (searched.trim() === '' || (Array.from(searched).length < 2 && searched.charCodeAt(0) < 0x80)) {
        out.hidden = false;
        listBox.textContent = '';
        say('Type at least two characters.');
        drawn = null;
        return;
      }
      var state = query + '\u0000' + (index ? 'i' : '') + (failed ? 'f' : '') + shards.filter(Boolean).length + '/' + missing;
      if (state === drawn && !out.hidden) return;
      drawn = state;
      out.hidden = false;
      listBox.textContent = '';
      if (!index) { say(failed ? 'The search index could not be loaded.' : 'Loading the search index…'); return; }
      var words = termsOf(query);
      if (words.length === 0) words = [searched];
      var list = document.createElement('ol');
      // Every match is counted; the first LIMIT are listed.
      var count = 0;
      index.sessions.forEach(function (session, s) {
        // null: a session no list shows (Claude Code's start-up warmups alone).
        if (!session) return;
        var title = foldedTitles[s];
        if (title == null) title = foldedTitles[s] = fold(session[0] + ' ' + session[1]);
        if (matches(title, words)) {
          if (count < LIMIT) list.appendChild(result(session, 't', session[3], session[0] + ' — ' + session[1], words));
          count++;
        }
      });
      var loaded = 0;
      for (var n = 0; n < shards.length; n++) {
        if (!shards[n]) continue;
        loaded++;
        for (var r = 0; r < shards[n].length; r++) {
          var row = shards[n][r];
          if (!matches(foldedRow(n, r), words)) continue;
          if (count < LIMIT) list.appendChild(result(index.sessions[row[0]], row[1], row[2], row[3], words));
          count++;
        }
      }
      var pending = shards.length - loaded - missing;
      say((count === 0 ? 'No matches' : count > LIMIT ? 'The first ' + LIMIT + ' of ' + count.toLocaleString('en-US') + ' matches' : count + (count === 1 ? ' match' : ' matches')) +
        (pending > 0 ? ' so far (' + loaded + ' of ' + shards.length + ' parts of the index loaded)' : '') +
        // Nothing found: said what was looked in (a browser review: words shown in a reply were
        // "No matches", past its opening).
        (index.repliesLeftOut > 0 ? '. ' + repliesSearched(index) : count === 0 ? '. ' + REPLIES_BY_OPENING : '.') +
        // Said, not left as "so far" for good: what those parts hold is not searched.
        (pending === 0 && missing > 0 ? (missing === shards.length ? ' The index\u2019s text could not be loaded: only titles were searched.' : ' ' + missing + ' of ' + shards.length + ' parts of the index could not be loaded: what they hold was not searched.') : ''));
      listBox.appendChild(list);
    }
    var timer = null;
    input.addEventListener('focus', start);
    input.addEventListener('input', function () {
      start();
      clearTimeout(timer);
      timer = setTimeout(run, 120);
    });
    // Enter opens the first result, once there is one.
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      start();
      run();
      var first = out.hidden ? null : listBox.querySelector('a');
      if (first) first.click();
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') { input.value = ''; out.hidden = true; drawn = null; }
    });
    // Escape among the results closes them too, back to the box.
    out.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') { out.hidden = true; drawn = null; input.focus(); }
    });
    document.addEventListener('keydown', function (event) {
      if (event.key === '/' && shortcutKey(event)) { event.preventDefault(); input.focus(); }
    });
  }

  window.addEventListener('hashchange', reveal);
  // A link to the entry already in the address changes nothing the hashchange above hears: the
  // view may hide that entry since (prompts only), so it is revealed again.
  // A search result links by the page's path too (../sessions/….html#id): the same page and hash either way.
  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href*="#"]') : null;
    if (link && link.hash && link.hash === window.location.hash && link.pathname === window.location.pathname) window.setTimeout(reveal, 0);
  });

  // A link inside a drawing that scrolls in its box (a tree's rows and branch tags, a chart's
  // bars) is not scrolled into view when the keyboard moves to it, as an HTML link is: the box is
  // scrolled by hand, so the focused link shows whole, its start first when it is wider.
  var FOCUS_ROOM = 8;
  document.addEventListener('focusin', function (event) {
    var link = event.target;
    if (!link || !link.closest || !(link instanceof SVGElement)) return;
    var box = link.closest('.tree-scroll, .chart-scroll');
    if (!box) return;
    var at = link.getBoundingClientRect();
    var frame = box.getBoundingClientRect();
    var left = at.left - frame.left - box.clientLeft;
    var right = at.right - frame.left - box.clientLeft;
    if (left < FOCUS_ROOM || right - left + 2 * FOCUS_ROOM > box.clientWidth) box.scrollLeft += left - FOCUS_ROOM;
    else if (right > box.clientWidth - FOCUS_ROOM) box.scrollLeft += right - box.clientWidth + FOCUS_ROOM;
    var top = at.top - frame.top - box.clientTop;
    var bottom = at.bottom - frame.top - box.clientTop;
    if (top < 0) box.scrollTop += top - FOCUS_ROOM;
    else if (bottom > box.clientHeight) box.scrollTop += bottom - box.clientHeight + FOCUS_ROOM;
  });

  /** Room right of a chart's newest bar for the axis's labels (CSS pixels). */
  var CHART_ROOM = 72;
  /** A month group's heading and table head, and a row of its table, about (CSS pixels). */
  var GROUP_HEAD_PX = 110;
  var ROW_PX = 34;

  document.addEventListener('DOMContentLoaded', function () {
    var form = document.querySelector('[data-search]');
    if (form) archiveSearch(form);
    // The toolbar first: the view it keeps from the last page may hide the entry linked to, which
    // reveal() then shows again.
    var bar = document.querySelector('[data-session-toolbar]');
    if (bar) sessionToolbar(bar);
    reveal();
    // A chart wider than the screen opens on its newest bar, where a reader looks first: at the
    // right, with the axis's labels beside it (a project of one day in a longer period has days
    // after its bar, where the chart's end showed nothing).
    Array.prototype.forEach.call(document.querySelectorAll('.chart-scroll'), function (box) {
      var bars = box.querySelectorAll('g.bar');
      var last = bars[bars.length - 1];
      if (!last) return;
      var right = last.getBoundingClientRect().right - box.getBoundingClientRect().left + box.scrollLeft;
      box.scrollLeft = Math.max(0, right + CHART_ROOM - box.clientWidth);
    });
    // The month groups of the index are laid out only near the screen: each is said to be as high
    // as its rows will make it, not one height for all (a scrollbar five times the page's length).
    Array.prototype.forEach.call(document.querySelectorAll('section.session-group'), function (group) {
      group.style.containIntrinsicSize = 'auto ' + (GROUP_HEAD_PX + group.querySelectorAll('tbody tr').length * ROW_PX) + 'px';
    });
    Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
    var footer = document.querySelector('footer.site');
    // An exported page has no search box, and is a session's page.
    var searchable = document.querySelector('[data-search]') !== null;
    if (footer) footer.appendChild(keysBox(searchable ? 'Single-key shortcuts (/ search; t, o, e on a session’s page)' : 'Single-key shortcuts (t thinking, o tool output, e everything)'));
    // The outline of prompts is folded above the conversation (on a phone, hundreds of lines
    // before the first message); beside it, on a wide screen, it is open.
    var outline = document.querySelector('nav.outline details');
    if (outline && window.matchMedia('(min-width: 1500px)').matches) outline.open = true;
  });
})();

// Print opens every folded part and folds back afterwards what the reader had folded. Chromium
// already opens them in print through CSS (::details-content); other browsers need this. And a
// sortable table's header words are in the buttons that sort it, whose content Chromium does not
// repeat where it repeats a table's header on each printed page: they print as plain words.
(function () {
  var opened = [];
  var unwrapped = [];
  window.addEventListener('beforeprint', function () {
    opened = Array.prototype.filter.call(document.querySelectorAll('details:not([open])'), function (d) {
      d.open = true;
      return true;
    });
    unwrapped = Array.prototype.map.call(document.querySelectorAll('table.sortable thead th > button'), function (b) {
      var words = document.createElement('span');
      while (b.firstChild) words.appendChild(b.firstChild);
      b.parentNode.replaceChild(words, b);
      return [b, words];
    });
  });
  window.addEventListener('afterprint', function () {
    opened.forEach(function (d) { d.open = false; });
    opened = [];
    unwrapped.forEach(function (pair) {
      while (pair[1].firstChild) pair[0].appendChild(pair[1].firstChild);
      pair[1].parentNode.replaceChild(pair[0], pair[1]);
    });
    unwrapped = [];
  });
})();
