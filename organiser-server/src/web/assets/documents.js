
// Documents (documents.js): drag-and-drop upload with its progress.