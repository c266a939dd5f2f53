// The product page's filter box: hides the rows whose benchmark and metric do not contain the text.
(function () {
  'use strict';
  var box = document.getElementById('filter');
  var table = document.getElementById(box ? box.getAttribute('aria-controls') : '');
  var count = document.getElementById('filter-count');
  if (!box || !table) return;
  box.addEventListener('input', function () {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0, rows = table.querySelectorAll('tbody tr[data-filter]');
    rows.forEach(function (tr) {
      var text = tr.getAttribute('data-filter').toLowerCase();
      var match = words.every(function (w) { return text.indexOf(w) >= 0; });
      tr.hidden = !match;
      if (match) shown++;
    });
    count.textContent = words.length ? shown + ' of ' + rows.length + ' shown' : '';
  });
})();
