// The arrow keys step through a board's moves; without this script its links do the same.
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  var id = event.key === "ArrowLeft" ? "previous" : event.key === "ArrowRight" ? "next" : "";
  var link = id && document.getElementById(id);
  if (link) window.location.href = link.href;
});
