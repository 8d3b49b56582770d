// "Scroll the table sideways" is said only where the table is wider than its box, at this
// width (a table that fits at 1280 px scrolls at 390 px), and again when the window is
// resized. Without JavaScript the hint stays hidden: the box's shaded edges still show more.
function showScrollHints() {
  document.querySelectorAll(".scroll-hint").forEach(function (hint) {
    var box = hint.nextElementSibling;
    hint.hidden = !(box && box.scrollWidth > box.clientWidth + 1);
  });
}
showScrollHints();
window.addEventListener("resize", showScrollHints);
