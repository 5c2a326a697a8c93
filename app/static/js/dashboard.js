// The admin dashboard's charts (Chart.js), drawn from the figures the page carries as JSON.
(function () {
  "use strict";
  const source = document.getElementById("dashboard-data");
  if (!source || typeof Chart === "undefined") return;
  const figures = JSON.parse(source.textContent);
  const days = enumerateDays(figures.from, figures.to);
  const palette = ["#c8102e", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"];

  function enumerateDays(from, to) {
    const out = [];
    for (let day = new Date(from + "T00:00:00Z"); day <= new Date(to + "T00:00:00Z"); day.setUTCDate(day.getUTCDate() + 1)) {
      out.push(day.toISOString().slice(0, 10));
    }
    return out;
  }

  function draw(id, config) {
    const canvas = document.getElementById(id);
    if (!canvas) return;
    canvas.chart = new Chart(canvas, config);
    canvas.dataset.drawn = "true";
  }

  const perDay = Object.fromEntries(figures.users.newPerDay.map((row) => [row.day, row.count]));
  draw("chart-users", {
    type: "line",
    data: { labels: days, datasets: [{ label: "", data: days.map((day) => perDay[day] || 0), borderColor: palette[0], tension: 0.2 }] },
    options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
  });

  const kinds = [...new Set(figures.decodes.perDay.map((row) => row.resultKind))].sort();
  draw("chart-decodes", {
    type: "bar",
    data: {
      labels: days,
      datasets: kinds.map((kind, index) => ({
        label: kind,
        backgroundColor: palette[index % palette.length],
        data: days.map((day) => {
          const row = figures.decodes.perDay.find((item) => item.day === day && item.resultKind === kind);
          return row ? row.count : 0;
        }),
      })),
    },
    options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
  });

  draw("chart-sources", {
    type: "bar",
    data: {
      labels: figures.sources.map((row) => row.source),
      datasets: [
        { label: "p50 ms", backgroundColor: palette[1], data: figures.sources.map((row) => row.p50Ms || 0) },
        { label: "p95 ms", backgroundColor: palette[0], data: figures.sources.map((row) => row.p95Ms || 0) },
      ],
    },
    options: { scales: { y: { beginAtZero: true } } },
  });
})();
