// A pool thread whose script cannot even load, as a missing or broken install would be.
import 'this-package-does-not-exist';
