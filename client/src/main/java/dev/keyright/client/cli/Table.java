package dev.keyright.client.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain text table: columns as wide as their widest cell, two spaces apart. */
final class Table {

    private final List<String[]> rows = new ArrayList<>();

    Table(String... headings) {
        rows.add(headings);
    }

    void row(Object... cells) {
        String[] text = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            text[i] = cells[i] instanceof Double d && d == Math.rint(d) ? String.valueOf(d.longValue()) : String.valueOf(cells[i]);
        }
        rows.add(text);
    }

    void print(PrintStream out) {
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
