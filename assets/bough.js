// Progressive enhancement only: every page reads fully without this script.
(function () {
  // When a link targets an entry folded inside <details>, unfold the way to it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var node = target; node; node = node.parentElement) {
      if (node.tagName === 'DETAILS') node.open = true;
    }
  }

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

  window.addEventListener('hashchange', reveal);
  document.addEventListener('DOMContentLoaded', function () {
    reveal();
    Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), sortable);
  });
})();
