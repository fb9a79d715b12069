package dev.keyright.seats.admins.entity;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A server-wide value kept in the database, such as the generated admin password's hash. */
@Entity
@Table(name = "setting")
public class Setting {

    @Id
    private String name;
    @Column(name = "setting_value")
    private String value;

    protected Setting() {
    }

    public Setting(String name, String value) {
        this.name = name;
        this.value = value;
    }

    public String value() {
        return value;
    }
}
