// The simulated SIM's message storage: a fixed number of slots, 1-based like most modems' "SM".

/** <stat> in PDU mode: 0 received unread, 1 received read, 2 stored unsent, 3 stored sent. */
export type SimSlotStatus = 0 | 1 | 2 | 3;

/** One occupied slot. */
export interface SimStoredPdu {
  index: number;
  status: SimSlotStatus;
  /** Hex PDU with the SMSC prefix, as +CMGR prints it. */
  pdu: string;
  tpduLength: number;
}

/** A fixed-size SIM storage. */
export class SimStorage {
  private readonly slots: (SimStoredPdu | undefined)[];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1 || size > 255)
      throw new RangeError(`storage size must be 1..255, got ${size}`);
    this.slots = new Array<SimStoredPdu | undefined>(size).fill(undefined);
  }

  /** Occupied slots in index order. */
  list(): SimStoredPdu[] {
    return this.slots.filter((s): s is SimStoredPdu => s !== undefined).map((s) => ({ ...s }));
  }

  /** Number of occupied slots. */
  get used(): number {
    return this.slots.filter((s) => s !== undefined).length;
  }

  /** The slot at index, or undefined when empty or out of range. */
  get(index: number): SimStoredPdu | undefined {
    return this.slots[index - 1];
  }

  /** Stores a PDU in the first free slot; returns its index, or undefined when full. */
  add(status: SimSlotStatus, pdu: string, tpduLength: number): number | undefined {
    const i = this.slots.indexOf(undefined);
    if (i < 0) return undefined;
    this.slots[i] = { index: i + 1, status, pdu, tpduLength };
    return i + 1;
  }

  /** Changes the status of an occupied slot. */
  mark(index: number, status: SimSlotStatus): void {
    const slot = this.slots[index - 1];
    if (slot !== undefined) slot.status = status;
  }

  /** Empties a slot; true when it was occupied. */
  delete(index: number): boolean {
    if (this.slots[index - 1] === undefined) return false;
    this.slots[index - 1] = undefined;
    return true;
  }

  /** True for 1..size. */
  inRange(index: number): boolean {
    return Number.isInteger(index) && index >= 1 && index <= this.size;
  }
}
