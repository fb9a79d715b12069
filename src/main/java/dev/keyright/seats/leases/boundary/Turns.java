package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.problems.BusinessException;
import java.util.Map;

/**
 * What one pass over a license's queue decided for the installs held on this node: seats handed over (by
 * install), the place of each install still waiting (1 = next), or a refusal for all of them (the license was
 * suspended or is gone). A held install in neither map has left the line.
 */
public record Turns(String product, Map<String, Grant> granted, Map<String, Integer> positions, long seatsInUse,
                    int maxSeats, BusinessException refusal) {

    static Turns refused(BusinessException refusal) {
        return new Turns(null, Map.of(), Map.of(), -1, 0, refusal);
    }
}
