package dev.keyright.seats.leases.boundary;

import dev.keyright.seats.web.RequestRecords;
import jakarta.json.JsonObject;
import jakarta.validation.constraints.NotNull;

/**
 * {@code POST /v1/seats/{leaseId}/borrow}: for how many whole hours the seat leaves the network. Whether that
 * many are allowed is the license's to say ({@code maxBorrowHours}), in {@link Seats#borrow}.
 */
public record BorrowRequest(@NotNull(message = "is required") Integer hours) {

    public static BorrowRequest from(JsonObject json) {
        return RequestRecords.bind(json, BorrowRequest.class);
    }
}
