-- The database and the user Keyright Seats needs on MariaDB (or MariaDB Galera), run once as root:
--
--   { echo "SET @db='keyright', @user='keyright', @host='10.0.0.%', @password='...';"; cat server-config/mariadb-setup.sql; } | mariadb -uroot -p
--
-- @db and @user default to 'keyright', @host to '%' (any address; name the application servers' addresses
-- or subnet instead when you can); @password has no default: without it the script stops at its first
-- statement. The user may create and alter the tables (the application migrates its own schema at start-up
-- from db/migration) and read and write them; nothing outside its database. utf8mb4 with a binary collation:
-- license keys, install ids and names compare byte for byte. Running it again changes nothing but the grant.
-- .ci/deploy-lib.sh makes every test database of the deployment checks with this script.
SET @db = COALESCE(@db, 'keyright');
SET @user = COALESCE(@user, 'keyright');
SET @host = COALESCE(@host, '%');

SET @ddl = IF(COALESCE(@password, '') = '',
    'SIGNAL SQLSTATE ''45000'' SET MESSAGE_TEXT = ''Set @password first (see the top of server-config/mariadb-setup.sql)''',
    CONCAT('CREATE USER IF NOT EXISTS ', QUOTE(@user), '@', QUOTE(@host), ' IDENTIFIED BY ', QUOTE(@password)));
PREPARE step FROM @ddl; EXECUTE step; DEALLOCATE PREPARE step;

SET @ddl = CONCAT('CREATE DATABASE IF NOT EXISTS `', REPLACE(@db, '`', '``'), '` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
PREPARE step FROM @ddl; EXECUTE step; DEALLOCATE PREPARE step;

SET @ddl = CONCAT('GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP, REFERENCES ON `',
                  REPLACE(@db, '`', '``'), '`.* TO ', QUOTE(@user), '@', QUOTE(@host));
PREPARE step FROM @ddl; EXECUTE step; DEALLOCATE PREPARE step;
