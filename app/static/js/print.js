// The print page (templates/catalog/print.html): its Print button, shown only where it can work.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
