/**
 * How a demo scene checks itself: `expect(condition, what)` records `what` as a failure when the
 * condition is false (the demo prints it and exits with status 1).
 */
export type Expect = (condition: boolean, what: string) => void;
