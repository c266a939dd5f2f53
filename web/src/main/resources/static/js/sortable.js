// Sortable tables: a button in each header cell sorts by that column (numbers by data-sort when a
// cell has it); pressing it again reverses. Plain buttons, so keyboards and screen readers work.
(function () {
  'use strict';

  function value(row, index) {
    var cell = row.cells[index];
    if (!cell) return '';
    var raw = cell.getAttribute('data-sort');
    if (raw === null) return cell.textContent.trim().toLowerCase();
    var n = Number(raw);
    return raw === '' || isNaN(n) ? raw.toLowerCase() : n;
  }

  function compare(a, b) {
    var an = typeof a === 'number', bn = typeof b === 'number';
    if (an && bn) return a - b;
    if (an) return -1; // numbers before empty cells
    if (bn) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function sort(table, index, button) {
    var body = table.tBodies[0];
    var th = button.closest('th');
    var descending = th.getAttribute('aria-sort') === 'ascending';
    table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      var c = compare(value(x, index), value(y, index));
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('thead th').forEach(function (th, index) {
      if (th.hasAttribute('data-nosort')) return;
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'sort';
      button.innerHTML = th.innerHTML;
      button.setAttribute('aria-label', 'Sort by ' + th.textContent.trim());
      th.innerHTML = '';
      th.appendChild(button);
      button.addEventListener('click', function () { sort(table, index, button); });
    });
  });
})();
