// With JavaScript, a slider mirrors each number field; without it the number fields suffice.
// Any touch of a slider gives its field a score, even at the slider's starting position (a
// click there fires no "input" event, which left the field empty and the form blocked).
document.querySelectorAll("input[data-slider]").forEach(function (number, index) {
  var slider = document.createElement("input");
  slider.type = "range"; slider.min = 0; slider.max = 100; slider.value = number.value || 0;
  slider.setAttribute("aria-label", "Score slider for text " + (index + 1));
  var sync = function () { number.value = slider.value; };
  ["input", "change", "click", "keyup"].forEach(function (event) {
    slider.addEventListener(event, sync);
  });
  number.addEventListener("input", function () { slider.value = number.value; });
  number.parentNode.insertBefore(slider, number);
});
