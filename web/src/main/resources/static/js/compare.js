// Choosing where head comes from (the default branch or a branch) empties head and base: the page then compares
// that branch's newest build with the version it started from, or the default branch's newest two versions.
document.addEventListener('DOMContentLoaded', () => {
  const from = document.getElementById('head-branch');
  if (!from) return;
  from.addEventListener('change', () => {
    for (const id of ['head', 'base']) {
      const input = document.getElementById(id);
      if (input) input.value = '';
    }
  });
});
