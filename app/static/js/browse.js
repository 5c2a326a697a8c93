// Browse pages: a list filtered as the dealer types (Turkish case rules: "İ" and "i", "I" and "ı" fold alike).
const fold = (text) => text.replace(/İ/g, "i").replace(/I/g, "ı").toLocaleLowerCase("tr")
  .normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/ı/g, "i");

const applyFilter = (input) => {
  const list = document.getElementById(input.dataset.filter);
  if (!list) return;
  const wanted = fold(input.value.trim());
  list.querySelectorAll("[data-filter-text]").forEach((item) => {
    item.hidden = wanted !== "" && !fold(item.dataset.filterText).includes(wanted);
  });
};

document.addEventListener("input", (event) => {
  if (event.target.matches("[data-filter]")) applyFilter(event.target);
});
document.querySelectorAll("[data-filter]").forEach(applyFilter);
