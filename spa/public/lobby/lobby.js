// The retired Flash lobbies (lobby/lobbyflash, lobby/tableflash) in the player's language:
// the SPA stores it under `locale`; Spanish is the default.
(function () {
  var texts = {
    es: {
      title: "El lobby de póker para escritorio ya no usa Flash",
      body: "Juega al póker en tu navegador con la versión HTML5, sin instalar nada.",
      play: "Jugar póker HTML5",
      home: "Volver al inicio",
    },
    pt: {
      title: "O lobby de pôquer para computador não usa mais Flash",
      body: "Jogue pôquer no navegador com a versão HTML5, sem instalar nada.",
      play: "Jogar pôquer HTML5",
      home: "Voltar ao início",
    },
    en: {
      title: "The desktop poker lobby no longer uses Flash",
      body: "Play poker in your browser with the HTML5 version, nothing to install.",
      play: "Play HTML5 poker",
      home: "Back to home",
    },
  };
  var language = "es";
  try {
    var stored = window.localStorage.getItem("locale");
    if (stored && texts[stored]) language = stored;
  } catch (e) {
    // storage blocked: stay in Spanish
  }
  document.documentElement.lang = language;
  document.querySelectorAll("[data-text]").forEach(function (node) {
    node.textContent = texts[language][node.getAttribute("data-text")];
  });
})();
