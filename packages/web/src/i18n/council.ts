/**
 * The council's question (M2c): the mafia's list of questions in the night form, and the GM's view of the
 * rules' answer (F2: another answer needs a reason). The questions' own texts are the rules' facts, in both
 * languages (`councilQuestionText` of `@forum-mafia/protocol/roles`).
 */

export const ru = {
  // The mafia's night form.
  legend: "Вопрос совету",
  hint: "Совет ответит «да» или «нет»; ответ получит только мафия в итогах ночи.",
  listOnly: "В игре без ведущего совет отвечает только на вопросы из списка.",
  own: "Свой вопрос",
  ownHint: "Ответит ведущий; вопрос о роли или ночном ходе конкретного игрока он отклонит.",
  ownLabel: "Ваш вопрос (ответ «да» или «нет»)",
  needQuestion: "Выберите вопрос совету.",
  needOwn: "Напишите свой вопрос совету.",
  // The GM's console.
  suggested: (a: string) => `Ответ по правилам: ${a}.`,
  suggestedTag: "по правилам",
  noSuggestion: "Вопрос не из списка: ответ по правилам не вычисляется, отвечайте сами.",
  automatic: (a: string) => `Без ответа к концу ночи совет ответит по правилам: ${a}.`,
  reason: "Причина (нужна, если ответ не совпадает с ответом по правилам)",
  reasonNeeded: "Этот ответ не совпадает с ответом по правилам: укажите причину.",
};

export const en: typeof ru = {
  legend: "Question to the council",
  hint: "The council answers yes or no; only the mafia get the answer, in the night's results.",
  listOnly: "In a game without a GM the council answers only the questions on the list.",
  own: "A question of your own",
  ownHint: "The GM answers it, and rejects a question about a specific player's role or night move.",
  ownLabel: "Your question (answered yes or no)",
  needQuestion: "Choose a question to the council.",
  needOwn: "Write your question to the council.",
  suggested: (a: string) => `The rules' answer: ${a}.`,
  suggestedTag: "by the rules",
  noSuggestion: "Not a question from the list: the rules give no answer, answer it yourself.",
  automatic: (a: string) => `Unanswered at the end of the night, the council answers by the rules: ${a}.`,
  reason: "Reason (needed when the answer differs from the rules' answer)",
  reasonNeeded: "This answer differs from the rules' answer: give a reason.",
};
