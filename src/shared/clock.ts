/** Time behind a port so that rules depending on it (throttles, key usage) can be tested. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
