package io.leaderpacer.simulator.sim;

import java.util.Arrays;

/**
 * A growable list of ints without boxing, for the per-broker sets the hot loops walk (lagging
 * replicas, recently moved partitions).
 */
public final class IntList {

    private int[] items;
    private int size;

    public IntList() {
        this(8);
    }

    public IntList(int capacity) {
        items = new int[Math.max(1, capacity)];
    }

    public void add(int value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, items.length * 2);
        }
        items[size++] = value;
    }

    public int get(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        return items[index];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** Removes the element at an index by moving the last one into its place (order is not kept). */
    public void swapRemove(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException(index + " of " + size);
        }
        items[index] = items[--size];
    }

    public void clear() {
        size = 0;
    }
}
