// On a small screen the long signature lists start folded (their summary opens them), so the
// table and what follows it are not pushed a screen away; without JavaScript they stay open.
if (window.matchMedia("(max-width: 40rem)").matches) {
  document.querySelectorAll("details[data-fold-small]").forEach(function (details) {
    details.removeAttribute("open");
  });
}
