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

  // Infinity (a change from 0) is a number like any other; two of them are equal (Infinity - Infinity is NaN)
  function compare(a, b) {
    if (typeof a === 'number') return a === b ? 0 : a - b;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  // cells with a number before those without (a "—"), whichever the direction
  function order(a, b, descending) {
    var an = typeof a === 'number', bn = typeof b === 'number';
    if (an !== bn) return an ? -1 : 1;
    var c = compare(a, b);
    return descending ? -c : c;
  }

  function sort(table, index, button) {
    var body = table.tBodies[0];
    var th = button.closest('th');
    var descending = th.getAttribute('aria-sort') === 'ascending';
    table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (x, y) {
      return order(value(x, index), value(y, index), descending);
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
