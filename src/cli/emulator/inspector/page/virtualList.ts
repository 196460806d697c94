import { el } from "./dom.js";

/** A list that holds any number of rows and makes elements only for the ones in view. */
export interface VirtualList {
  /** The scrolling element, to put in the page. */
  readonly element: HTMLElement;
  /** Sets how many rows there are and draws the ones in view again. */
  update(count: number): void;
  /** Scrolls so that row `index` is in view. */
  reveal(index: number): void;
}

export interface VirtualListOptions {
  /** The height of every row, in CSS pixels (the style sheet gives rows the same). */
  readonly rowHeight: number;
  /** Fills a row element with row `index`. */
  readonly render: (row: HTMLElement, index: number) => void;
  /** Makes an empty row element. */
  readonly createRow: () => HTMLElement;
  /** Rows drawn beyond each edge of the view, for smooth scrolling. */
  readonly overscan?: number;
}

/**
 * A virtual list: a spacer as tall as every row together, and a small pool of row elements moved
 * into place as the list scrolls (positions set through the CSS object model, which a strict
 * policy allows, never through style attributes).
 */
export function createVirtualList(options: VirtualListOptions): VirtualList {
  const { rowHeight } = options;
  const overscan = options.overscan ?? 8;
  const spacer = el("div", { className: "vlist-spacer" });
  const element = el("div", { className: "vlist", attrs: { role: "listbox", tabindex: "0" } }, spacer);
  const pool: HTMLElement[] = [];
  let count = 0;
  let scheduled = false;

  const draw = () => {
    scheduled = false;
    const height = element.clientHeight || rowHeight * 20;
    const first = Math.max(0, Math.floor(element.scrollTop / rowHeight) - overscan);
    const last = Math.min(count, Math.ceil((element.scrollTop + height) / rowHeight) + overscan);
    const needed = Math.max(0, last - first);
    while (pool.length < needed) {
      const row = options.createRow();
      row.classList.add("vlist-row");
      pool.push(row);
      element.appendChild(row);
    }
    pool.forEach((row, slot) => {
      if (slot >= needed) {
        row.hidden = true;
        return;
      }
      const index = first + slot;
      row.hidden = false;
      row.style.transform = `translateY(${index * rowHeight}px)`;
      options.render(row, index);
    });
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(draw);
  };
  element.addEventListener("scroll", schedule, { passive: true });
  new ResizeObserver(schedule).observe(element);

  return {
    element,
    update(next) {
      count = next;
      spacer.style.height = `${count * rowHeight}px`;
      draw();
    },
    reveal(index) {
      const top = index * rowHeight;
      if (top < element.scrollTop) element.scrollTop = top;
      else if (top + rowHeight > element.scrollTop + element.clientHeight)
        element.scrollTop = top + rowHeight - element.clientHeight;
      schedule();
    },
  };
}
