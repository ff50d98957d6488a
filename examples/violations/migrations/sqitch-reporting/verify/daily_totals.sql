SELECT day, orders, amount FROM daily_totals WHERE false;
