import { PortalListScreen } from './portal-screens';

export default PortalListScreen;
