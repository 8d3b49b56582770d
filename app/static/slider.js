// With JavaScript, a slider mirrors each number field; without it the number fields suffice.
document.querySelectorAll("input[data-slider]").forEach(function (number) {
  var slider = document.createElement("input");
  slider.type = "range"; slider.min = 0; slider.max = 100; slider.value = number.value || 0;
  slider.setAttribute("aria-label", "slider");
  slider.addEventListener("input", function () { number.value = slider.value; });
  number.addEventListener("input", function () { slider.value = number.value; });
  number.parentNode.insertBefore(slider, number);
});
