"""A live loss curve in a small Tk window, drawn after every epoch."""

import tkinter


class LossWindow:
    def __init__(self, title: str):
        self.root = tkinter.Tk()
        self.root.title(title)
        self.canvas = tkinter.Canvas(self.root, width=320, height=160, bg="white")
        self.canvas.pack()

    def draw(self, losses: list) -> None:
        self.canvas.delete("all")
        top = max(losses)
        for i, loss in enumerate(losses):
            self.canvas.create_oval(10 + 30 * i, 150 - 140 * loss / top, 14 + 30 * i, 154 - 140 * loss / top)
        self.root.update()
